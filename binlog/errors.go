package binlog

import "fmt"

// Error is a statement failure with Doris's detailMessage text (or a
// crafted one where Doris has none); the SQL layer shows Msg as it is.
type Error struct {
	Msg string
}

func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}
