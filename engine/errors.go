package engine

import "fmt"

// Error is a statement failure with Doris's detailMessage text. The HTTP
// layer wraps it as Doris does ("errCode = 2, detailMessage = ...").
type Error struct {
	Msg string
}

func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}
