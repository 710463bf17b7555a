package csvline

// Default values of Options.
const (
	DefaultMaxLineBytes = 64 << 20
	DefaultBufferSize   = 256 << 10
)

// The default separator and delimiter, shared: never modified.
var (
	defaultSeparator = []byte{'\t'}
	defaultDelimiter = []byte{'\n'}
)

// Options configure a Reader. The zero value reads Doris's default CSV:
// tab-separated fields, "\n" lines, no enclose, no escape.
type Options struct {
	// ColumnSeparator splits a line into fields (column_separator, parsed
	// with ParseSeparator). The default value (nil or empty) is "\t".
	ColumnSeparator []byte
	// LineDelimiter ends a line (line_delimiter, parsed with
	// ParseSeparator). The default value (nil or empty) is "\n"; when it is
	// exactly "\n", "\r\n" also ends a line and the '\r' is not part of it.
	LineDelimiter []byte
	// Enclose is the quote character (enclose). The default value 0 means
	// none: quotes are ordinary bytes.
	Enclose byte
	// Escape is the escape character (escape). The default value 0 means
	// none: no escape removal, and a doubled enclose stays doubled in the
	// value. A NUL byte is always data. Doris compares bytes with its unset
	// escape and enclose, both 0: its scanner takes a NUL in an enclosed
	// field for the escape character, which can merge lines into one
	// record, and its value step takes two NULs for a doubled enclose and
	// keeps one; csvline does neither.
	Escape byte
	// TrimDoubleQuotes strips one outer pair of '"' from each value
	// (trim_double_quotes). The default value is false.
	TrimDoubleQuotes bool
	// EmptyFieldAsNull makes an empty value NULL (empty_field_as_null). The
	// default value is false.
	EmptyFieldAsNull bool
	// SkipLines is how many leading lines to skip (skip_lines); negative is
	// 0. It is ignored when HeaderLines is set, as in Doris, where the header
	// type replaces skip_lines. The default value is 0.
	SkipLines int
	// HeaderLines is 1 for csv_with_names and 2 for csv_with_names_and_types:
	// those lines are skipped and kept for Reader.Header and
	// Reader.HeaderTypes. The default value is 0.
	HeaderLines int
	// MaxLineBytes bounds one record (without its delimiter); a longer one
	// fails the read with ErrLineTooLong. It also bounds the Reader's
	// memory: the buffer never grows past about MaxLineBytes. Doris's own
	// bound is 4 GiB (max_csv_line_reader_output_buffer_size). The default
	// value is 64 MiB.
	MaxLineBytes int
	// BufferSize is the initial read buffer size. Smaller values only cost
	// speed; tests use tiny ones to cross buffer boundaries. The default
	// value is 256 KiB.
	BufferSize int
}

// EnsureDefaults fills in the default values of unset options.
func (o *Options) EnsureDefaults() {
	if len(o.ColumnSeparator) == 0 {
		o.ColumnSeparator = defaultSeparator
	}
	if len(o.LineDelimiter) == 0 {
		o.LineDelimiter = defaultDelimiter
	}
	if o.SkipLines < 0 || o.HeaderLines > 0 {
		o.SkipLines = 0
	}
	if o.HeaderLines < 0 {
		o.HeaderLines = 0
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	if o.BufferSize <= 0 {
		o.BufferSize = DefaultBufferSize
	}
}
