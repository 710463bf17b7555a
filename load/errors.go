// Package load reads the body of one stream load into table rows: it parses
// and validates the load's headers, decompresses and bounds the body, reads
// its records with csvline or jsonline, turns them into table rows, counts
// total, filtered and unselected rows, hands the filtered ones to the error
// log and applies max_filter_ratio; it also defines the load's answer and
// its error codes. It commits nothing: loadtxn stages and commits the rows.
package load

import (
	"errors"
	"fmt"
	"strings"
)

// Status codes that prefix a load's Message, as Doris's TStatusCode names.
const (
	CodeInvalidArgument    = "INVALID_ARGUMENT"
	CodeAnalysisError      = "ANALYSIS_ERROR"
	CodeDataQualityError   = "DATA_QUALITY_ERROR"
	CodeNotFound           = "NOT_FOUND"
	CodeInternalError      = "INTERNAL_ERROR"
	CodeLabelAlreadyExists = "LABEL_ALREADY_EXISTS"
	CodeNotAuthorized      = "NOT_AUTHORIZED"
	CodeTimeout            = "TIMEOUT"
	CodeCancelled          = "CANCELLED"
	CodeE217               = "E-217"
	CodeE1101              = "E-1101"
)

// Error is a load failure with the status code Doris reports it under. Its
// Message is "[<Code>]<Msg>", as Doris's Status::to_string_no_stack.
type Error struct {
	Code string
	Msg  string
	// Client reports a fault of the request (bad header, bad data) as
	// opposed to a server fault; clients should not retry client faults.
	Client bool
	Err    error
}

func (e *Error) Error() string { return "[" + e.Code + "]" + e.Msg }

func (e *Error) Unwrap() error { return e.Err }

// invalidArg is a header error found by the BE: "[INVALID_ARGUMENT]<text>".
func invalidArg(format string, args ...any) *Error {
	return &Error{Code: CodeInvalidArgument, Msg: fmt.Sprintf(format, args...), Client: true}
}

// analysisError is an FE planning error relayed by the BE:
// "[ANALYSIS_ERROR]TStatus: errCode = 2, detailMessage = <text>".
func analysisError(format string, args ...any) *Error {
	return &Error{Code: CodeAnalysisError, Msg: "TStatus: errCode = 2, detailMessage = " + fmt.Sprintf(format, args...), Client: true}
}

// AsError returns err as a *Error, wrapping a foreign error as an internal
// error unless it carries its own Doris status code.
func AsError(err error) *Error {
	var le *Error
	if errors.As(err, &le) {
		return le
	}
	var coded interface{ StatusCode() string }
	if errors.As(err, &coded) {
		msg := err.Error()
		if i := strings.Index(msg, "]"); strings.HasPrefix(msg, "[") && i > 0 {
			msg = msg[i+1:]
		}
		return &Error{Code: coded.StatusCode(), Msg: msg, Client: true, Err: err}
	}
	return &Error{Code: CodeInternalError, Msg: err.Error(), Err: err}
}
