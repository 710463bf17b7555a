package types

import "fmt"

// Sentinel errors. Every error returned by this package wraps exactly one of
// them (test with errors.Is); its text is the Doris message for the case.
var (
	// ErrInvalidType reports a bad type name or type arguments (ParseType).
	ErrInvalidType = sentinel("invalid type")
	// ErrInvalidValue reports text or a value that cannot be converted to the
	// target type (Doris: NULL in non-strict mode, a filtered row in strict).
	ErrInvalidValue = sentinel("invalid value")
	// ErrOutOfRange reports a value that is valid but does not fit the target
	// type (integer overflow, DECIMAL precision, date out of 0000..9999).
	ErrOutOfRange = sentinel("value out of range")
	// ErrTooLong reports a CHAR/VARCHAR value longer than the column allows.
	ErrTooLong = sentinel("value too long")
	// ErrUnsupportedCast reports a cast Doris does not allow between the kinds.
	ErrUnsupportedCast = sentinel("unsupported cast")
)

type sentinelError string

func (e sentinelError) Error() string { return string(e) }

func sentinel(s string) error { return sentinelError(s) }

// typeError is an error with a Doris message wrapping one sentinel.
type typeError struct {
	kind error
	msg  string
}

func (e *typeError) Error() string { return e.msg }
func (e *typeError) Unwrap() error { return e.kind }

func newError(kind error, format string, args ...any) error {
	return &typeError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

func invalidType(format string, args ...any) error {
	return newError(ErrInvalidType, format, args...)
}

func invalidValue(format string, args ...any) error {
	return newError(ErrInvalidValue, format, args...)
}

func outOfRange(format string, args ...any) error {
	return newError(ErrOutOfRange, format, args...)
}
