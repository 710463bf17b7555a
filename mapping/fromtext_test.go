package mapping

import (
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/types"
)

// TestFromTextMatchesParseAndFinish: fromText's shortcuts (string columns
// taken as they are, plain integer text read by ParsePlainInt, a value that
// fits not passed through finish) give what ParseValue followed by finish
// gives.
func TestFromTextMatchesParseAndFinish(t *testing.T) {
	texts := []string{"", "a", "abcde", "abcdef", "éé", "ééé", " 12 ", "12.7", "-3", "x", "99999999999",
		"2026-11-29 10:00:00", "2026-02-30", "9999-12-31 23:59:59", "1.5e3", "123.456",
		"-0", "007", "127", "128", "-128", "-129", "+5", "-", "9223372036854775807", "999999999999999999"}
	kinds := []types.Type{{Kind: types.String}, {Kind: types.Varchar, Len: 5}, {Kind: types.Char, Len: 5},
		{Kind: types.Int}, {Kind: types.TinyInt}, {Kind: types.BigInt}, {Kind: types.DateTime}, {Kind: types.Date},
		{Kind: types.Decimal, Precision: 5, Scale: 2}, {Kind: types.Double}}
	for _, strict := range []bool{false, true} {
		for _, nullable := range []bool{false, true} {
			b := &Builder{strict: strict, loc: time.UTC}
			for _, ty := range kinds {
				c := &catalog.Column{Name: "c", Type: ty, Nullable: nullable}
				for _, s := range texts {
					in := types.NewString(types.String, s)
					var got types.Value
					reason := b.fromText(&got, &in, c)
					out, err := types.ParseValue(s, ty, time.UTC)
					want, wantReason := b.finish(out, err, s, c)
					if got != want || reason != wantReason {
						t.Errorf("strict=%v nullable=%v %v %q: fromText %+v %q, ParseValue+finish %+v %q", strict, nullable, ty, s, got, reason, want, wantReason)
					}
				}
			}
		}
	}
}
