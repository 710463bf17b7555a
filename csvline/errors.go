package csvline

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Sentinel errors.
var (
	// Errors of ParseSeparator, with Doris FE's exact texts (Separator.java).
	// Doris returns them to the client as
	// "[ANALYSIS_ERROR]TStatus: errCode = 2, detailMessage = <text>".
	ErrSeparatorEmpty = errors.New("Column separator is null or empty")
	ErrHexEmpty       = errors.New("Hex str is empty")
	ErrHexFormat      = errors.New("Hex str format error")
	ErrHexLength      = errors.New("Hex str length error")

	// ErrLineTooLong is matched (errors.Is) by the error Reader.Next returns
	// for a record longer than Options.MaxLineBytes; the error itself is a
	// *LineTooLongError. It fails the whole load, as Doris's line reader
	// does when its buffer passes max_csv_line_reader_output_buffer_size.
	ErrLineTooLong = errors.New("line too long")
)

// LineTooLongError is the error for a record longer than Limit bytes. Its
// text follows Doris's (new_plain_text_line_reader.cpp, reported as
// [INTERNAL_ERROR]) with loadgw's limit in place of Doris's 4GB.
type LineTooLongError struct {
	Limit int // Options.MaxLineBytes
	Line  int // 1-based line number of the record, as Reader.LineNumber
}

// Error implements error.
func (e *LineTooLongError) Error() string {
	return "Output buffer size exceeds configured limit of " + formatSize(e.Limit) +
		". It may be due to a configuration error or a very large row of data."
}

// Is makes errors.Is(err, ErrLineTooLong) true.
func (e *LineTooLongError) Is(target error) bool { return target == ErrLineTooLong }

// formatSize prints n as Doris prints its limit: whole GB, else MB, else bytes.
func formatSize(n int) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.Itoa(n>>30) + "GB"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + "MB"
	}
	return strconv.Itoa(n) + " bytes"
}

// ReasonInvalidEncoding is Doris's error-log reason for a line that is not
// valid UTF-8 (CsvReader::_validate_line). Doris checks every data line
// (after the byte order mark is dropped, before splitting) and filters the
// row; use ValidEncoding on the line Reader.Next returns.
const ReasonInvalidEncoding = "Invalid file encoding: all CSV files must be UTF-8 encoded"

// ValidEncoding reports whether line passes Doris's UTF-8 check
// (be/src/util/utf8_check.cpp: strict UTF-8, no overlong forms, no
// surrogates, nothing above U+10FFFF — the same set as utf8.Valid).
func ValidEncoding(line []byte) bool { return utf8.Valid(line) }

// ColumnCountMismatch is Doris's error-log reason for a record with found
// fields where expected were wanted (CsvReader::_line_split_to_values):
//
//	Column count mismatch: expected <n>, but found <m> (sep:<sep> delim:<delim>[ encl:<c>][ esc:<c>])
//
// Like Doris it spells every tab of the separator as `\t` and every newline
// of the delimiter as `\n` and writes all other bytes (including a newline
// in the separator, a tab in the delimiter, '\r' and \x01) as they are. The
// separator and delimiter are the parsed bytes (after ParseSeparator); nil
// means the default.
func ColumnCountMismatch(expected, found int, opts Options) string {
	opts.EnsureDefaults()
	var b strings.Builder
	fmt.Fprintf(&b, "Column count mismatch: expected %d, but found %d (sep:%s delim:%s",
		expected, found,
		strings.ReplaceAll(string(opts.ColumnSeparator), "\t", `\t`),
		strings.ReplaceAll(string(opts.LineDelimiter), "\n", `\n`))
	if opts.Enclose != 0 {
		b.WriteString(" encl:")
		b.WriteByte(opts.Enclose)
	}
	if opts.Escape != 0 {
		b.WriteString(" esc:")
		b.WriteByte(opts.Escape)
	}
	b.WriteByte(')')
	return b.String()
}
