package types

import (
	"testing"
	"unicode/utf8"
)

// TestAppendJSONQuoted pins the escapes json_quote and VARIANT's printer
// share, and the two replacements of a byte that is not UTF-8.
func TestAppendJSONQuoted(t *testing.T) {
	in := "a\"b\\c\b\f\n\r\t\x01\x1fé\xff"
	for _, c := range []struct{ invalid, want string }{
		{`\ufffd`, `"a\"b\\c\b\f\n\r\t\u0001\u001fé\ufffd"`},
		{string(utf8.RuneError), "\"a\\\"b\\\\c\\b\\f\\n\\r\\t\\u0001\\u001fé\uFFFD\""},
	} {
		if got := string(AppendJSONQuoted([]byte("x"), in, c.invalid)); got != "x"+c.want {
			t.Errorf("AppendJSONQuoted(%q, %q) = %q, want %q", in, c.invalid, got, "x"+c.want)
		}
	}
}
