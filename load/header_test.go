package load

import (
	"net/http"
	"testing"
)

// TestHeaderLookup: headers are found in any ASCII case, as Doris's BE
// compares names (StringCaseEqual: same length, strncasecmp), whether
// net/http canonicalised them or not; a name of another length never
// matches, and lookups of present and absent names allocate nothing.
func TestHeaderLookup(t *testing.T) {
	h := http.Header{}
	h.Set("read_json_by_line", "true")                // canonical: Read_json_by_line
	h["FUNCTION_COLUMN.SEQUENCE_COL"] = []string{"s"} // as a client spelled it, not canonical
	h["Columns"] = []string{}                         // a name without values: absent
	for _, c := range []struct {
		name, want string
		ok         bool
	}{
		{"read_json_by_line", "true", true},
		{"READ_JSON_BY_LINE", "true", true},
		{"function_column.sequence_col", "s", true},
		{"Function_Column.Sequence_Col", "s", true},
		{"columns", "", false},
		{"format", "", false},
		{"read_json_by_lin", "", false},
	} {
		if got, ok := header(h, c.name); got != c.want || ok != c.ok {
			t.Errorf("header %q: %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
	// The Kelvin sign folds to k in Unicode, not in ASCII.
	if _, ok := header(http.Header{"\u212aey": {"v"}}, "key"); ok {
		t.Error(`header "key" matched a name with a Kelvin sign`)
	}
	h.Set("Format", "json")
	if n := testing.AllocsPerRun(100, func() {
		header(h, "format")
		header(h, "read_json_by_line")
		header(h, "jsonpaths")
		header(h, "function_column.sequence_col")
	}); n != 0 {
		t.Errorf("%v allocations per 4 lookups, want 0", n)
	}
}
