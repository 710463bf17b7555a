package jsonline

// Options selects how the body is split into rows. The zero value reads the
// whole body as one JSON object with the default limits.
type Options struct {
	// ReadByLine: every line (split on "\n", a "\r" before it is dropped) is
	// one JSON document. Empty lines are skipped. The default value is false
	// (the body is one document) — but note that Doris's *header* default is
	// read_json_by_line=true when neither read_json_by_line nor
	// strip_outer_array is sent; the caller applies that default.
	ReadByLine bool
	// StripOuterArray: the document (after JSONRoot) is an array whose
	// elements are the rows. The default value is false.
	StripOuterArray bool
	// JSONRoot is the json_root header, e.g. "$.data". It is applied to
	// documents that are objects; with StripOuterArray and JSONPaths it is
	// applied to every element of a top-level array instead. The default
	// value is "" (none).
	JSONRoot string
	// JSONPaths is the raw jsonpaths header: a JSON array of paths mapped by
	// position to the wanted columns. The default value is "" (match keys by
	// column name).
	JSONPaths string
	// FuzzyParse is accepted for compatibility. Doris's current reader
	// ignores it (it always caches the key order of the previous row), and so
	// does this one: results never depend on it.
	FuzzyParse bool
	// NumAsString is accepted for compatibility. Doris's load path always
	// hands numbers on as their text exactly as written (the flag only
	// affects schema inference in http_stream), so Field.Text of a number is
	// always the number's raw text.
	NumAsString bool
	// MaxLineBytes limits one line when ReadByLine is set; a longer line
	// fails the load with ErrLineTooLong. The default value is 64 MiB.
	MaxLineBytes int
	// MaxBodyBytes limits the body when ReadByLine is not set (Doris:
	// streaming_load_json_max_mb, 100 MiB); a larger body fails the load with
	// ErrBodyTooLarge. Doris checks Content-Length before reading and reports
	// the full size; the caller should do the same (the reader's check is a
	// memory bound for chunked bodies and reports the bytes read so far).
	// The default value is 100 MiB.
	MaxBodyBytes int64
}

const (
	defaultMaxLineBytes = 64 << 20
	defaultMaxBodyBytes = 100 << 20
)

// EnsureDefaults replaces zero (or negative) limits by their defaults.
func (o *Options) EnsureDefaults() {
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = defaultMaxLineBytes
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = defaultMaxBodyBytes
	}
}

// Kind is the JSON type of a present field.
type Kind uint8

// Kinds of Field values.
const (
	Null Kind = iota
	String
	Number
	Bool
	Object
	Array
)

var kindNames = [...]string{"null", "string", "number", "bool", "object", "array"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// Field is one wanted column's value in a row. Text is valid until the next
// call to Reader.Next.
type Field struct {
	// Present: the key was in the object (first occurrence wins). False means
	// absent, which is distinct from a JSON null (Present, Kind Null).
	Present bool
	Kind    Kind
	// Text is the value as Doris hands it to the column converter:
	//   - String: the unescaped UTF-8 text;
	//   - Number: the token exactly as written (never reformatted; Doris does
	//     not validate it either, so "1e5", "-0", "12abc" arrive verbatim);
	//   - Bool: "1" or "0" (Doris converts JSON booleans to 1/0, not
	//     "true"/"false");
	//   - Object, Array: the raw JSON text as written (whitespace inside is
	//     kept; the enclosing value is trimmed);
	//   - Null: empty.
	Text []byte
}
