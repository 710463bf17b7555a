package expr

import "errors"

// Error is an analysis (bind-time) or evaluation error whose text is
// Doris's; the HTTP layer shows Msg as detailMessage.
type Error struct {
	Msg string
}

func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) error {
	return &Error{Msg: sprintf(format, args...)}
}

// Sentinels.
var (
	// ErrDivideByZero is never returned by Eval (Doris yields NULL); it is
	// kept for callers that want strict arithmetic.
	ErrDivideByZero = errors.New("division by zero")
	// ErrArithmeticOverflow is wrapped by errors from DECIMAL arithmetic
	// whose result does not fit DECIMAL(38). Unconfirmed text.
	ErrArithmeticOverflow = errors.New("Arithmetic overflow")
)
