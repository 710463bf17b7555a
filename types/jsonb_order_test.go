package types

import (
	"slices"
	"testing"
)

// TestCompareJSONDorisOrder checks that JSON values sort as Doris's BE sorts
// a JSONB column: bytewise over the JSONB binary, so by the JSONB type byte
// first (null, true, false, int8, int16, int32, int64, double, string,
// object, array, int128), then by the little-endian payload (string and
// container sizes before their bytes).
func TestCompareJSONDorisOrder(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []string
		want []string
	}{
		// Doris regression explode_json_array.out, explode_json_array_json1.
		{"explode_json_array_json1",
			[]string{`"abc"`, `{"key":"value"}`, `5.23`, `4`},
			[]string{`4`, `5.23`, `"abc"`, `{"key":"value"}`}},
		// explode_json_array_json_outer1.
		{"explode_json_array_json_outer1",
			[]string{`"abc"`, `5.23`, `"5"`, `4`},
			[]string{`4`, `5.23`, `"5"`, `"abc"`}},
		{"type byte order",
			[]string{`[1]`, `{"a":1}`, `"s"`, `1.5`, `5000000000`, `70000`, `300`, `1`, `false`, `true`, `null`},
			[]string{`null`, `true`, `false`, `1`, `300`, `70000`, `5000000000`, `1.5`, `"s"`, `{"a":1}`, `[1]`}},
		// INT8 payload is one two's-complement byte: -1 (0xff) after 4.
		{"int8 bytes", []string{`-1`, `4`, `0`}, []string{`0`, `4`, `-1`}},
		// A string's 4-byte little-endian length comes before its bytes.
		{"string length first", []string{`"b"`, `"aa"`, `"a"`}, []string{`"a"`, `"b"`, `"aa"`}},
		// An integer beyond BIGINT is INT128, after every array.
		{"int128", []string{`170141183460469231731687303715884105727`, `[]`}, []string{`[]`, `170141183460469231731687303715884105727`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vals := make([]Value, len(tc.in))
			for i, s := range tc.in {
				vals[i] = Value{Kind: JSON, S: s}
			}
			slices.SortStableFunc(vals, Compare)
			got := make([]string, len(vals))
			for i, v := range vals {
				got[i] = v.S
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("sorted %v, want %v", got, tc.want)
			}
			for i := range vals {
				if Compare(vals[i], vals[i]) != 0 {
					t.Fatalf("%s not equal to itself", vals[i].S)
				}
			}
		})
	}
}
