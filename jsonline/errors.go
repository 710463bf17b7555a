package jsonline

import (
	"errors"
	"strconv"
	"strings"
)

// Sentinels for errors that fail the whole load. Each is wrapped in an *Error
// that carries Doris's status code and exact message; test with errors.Is.
var (
	// ErrInvalidJSONPath: the jsonpaths header is not a JSON array of strings,
	// or a path (or json_root) has a bad escape sequence.
	ErrInvalidJSONPath = errors.New("jsonline: invalid json path")
	// ErrJSONPathData: with strip_outer_array and jsonpaths, Doris fails the
	// whole load (instead of filtering the row) when a path cannot be
	// evaluated, e.g. a path without the leading "$." ("empty json path").
	ErrJSONPathData = errors.New("jsonline: json path evaluation failed")
	// ErrLineTooLong: a line is longer than Options.MaxLineBytes.
	ErrLineTooLong = errors.New("jsonline: line too long")
	// ErrBodyTooLarge: a body read as one document exceeds Options.MaxBodyBytes.
	ErrBodyTooLarge = errors.New("jsonline: json body too large")
)

// Error is a load-failing error in Doris's words. The Stream Load response
// Message is "[" + Code + "]" + Msg.
type Error struct {
	Code string // Doris status code as printed in brackets, e.g. "INVALID_JSON_PATH", "E-217"
	Msg  string // exact Doris message text
	kind error  // one of the sentinels above
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the sentinel classifying the error.
func (e *Error) Unwrap() error { return e.kind }

// RowError reports a row (or a whole JSON document) that Doris filters: the
// caller counts it in NumberFilteredRows, logs it and continues with Next.
type RowError struct {
	// Reason is the error-log reason in Doris's exact words, e.g.
	// "Parse json data for JsonDoc failed. code: 3, error info: TAPE_ERROR: ...".
	Reason string
}

func (e *RowError) Error() string { return e.Reason }

// simdjson error codes (simdjson v3.11.6, the version Doris BE links) that
// the reader reproduces. Doris prints the numeric code and the message.
type sjCode uint8

const (
	sjOK               sjCode = 0
	sjTapeError        sjCode = 3
	sjStringError      sjCode = 5
	sjUTF8Error        sjCode = 11
	sjEmpty            sjCode = 13
	sjUnescapedChars   sjCode = 14
	sjUnclosedString   sjCode = 15
	sjIncorrectType    sjCode = 17
	sjIndexOutOfBounds sjCode = 19
	sjNoSuchField      sjCode = 20
	sjIncomplete       sjCode = 28
)

var sjMessages = map[sjCode]string{
	sjTapeError:        "TAPE_ERROR: The JSON document has an improper structure: missing or superfluous commas, braces, missing keys, etc.",
	sjStringError:      "STRING_ERROR: Problem while parsing a string",
	sjUTF8Error:        "UTF8_ERROR: The input is not valid UTF-8",
	sjEmpty:            "EMPTY: no JSON found",
	sjUnescapedChars:   "UNESCAPED_CHARS: Within strings, some characters must be escaped, we found unescaped characters",
	sjUnclosedString:   "UNCLOSED_STRING: A string is opened, but never closed.",
	sjIncorrectType:    "INCORRECT_TYPE: The JSON element does not have the requested type.",
	sjIndexOutOfBounds: "INDEX_OUT_OF_BOUNDS: Attempted to access an element of a JSON array that is beyond its length.",
	sjNoSuchField:      "NO_SUCH_FIELD: The JSON field referenced does not exist in this object.",
	sjIncomplete:       "INCOMPLETE_ARRAY_OR_OBJECT: JSON document ended early in the middle of an object or array.",
}

func (c sjCode) message() string { return sjMessages[c] }

// Reasons in Doris's words (be/src/vec/exec/format/json/new_json_reader.cpp).
const (
	reasonNotObjectOrArray = "Not an json object or json array"
	reasonMustStrip        = "JSON data is array-object, `strip_outer_array` must be TRUE."
	reasonMustNotStrip     = "JSON data is not an array-object, `strip_outer_array` must be FALSE."
	reasonEmptyLine        = "Empty json line"
	reasonNotObjectItem    = "Not object item"
)

// docParseReason: the document failed simdjson's first stage (iterate) or
// its type could not be read.
func docParseReason(c sjCode) string {
	return "Parse json data for JsonDoc failed. code: " + strconv.Itoa(int(c)) + ", error info: " + c.message()
}

// iterReason: simdjson threw while Doris iterated the document.
func iterReason(c sjCode) string {
	return "Parse json data failed. code: " + strconv.Itoa(int(c)) + ", error info: " + c.message()
}

// noColumnReason is Doris's text for a row in which no wanted key is found.
func noColumnReason(cols []string, jsonpaths string) string {
	var b strings.Builder
	b.WriteString("There is no column matching jsonpaths in the json file, columns:[")
	for _, c := range cols {
		b.WriteString(c)
		b.WriteString(", ")
	}
	b.WriteString("], please check columns and jsonpaths:")
	b.WriteString(jsonpaths)
	return b.String()
}

func invalidPathError(jsonpaths string) *Error {
	return &Error{Code: "INVALID_JSON_PATH", Msg: "Invalid json path: " + jsonpaths, kind: ErrInvalidJSONPath}
}
