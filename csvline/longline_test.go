package csvline

import (
	"fmt"
	"strings"
	"testing"
)

// longLineBodies are records far larger than the buffer: many fields, and
// long enclosed fields holding separators and line breaks.
func longLineBodies(n int) map[string]string {
	return map[string]string{
		"fields": strings.Repeat("a,", n) + "z\n",
		"quoted": `"` + strings.Repeat("x\n,", n) + `",b` + "\n",
	}
}

func readAllFields(body string, enc byte) (records, fields int) {
	r := NewReader(strings.NewReader(body), Options{
		ColumnSeparator: []byte(","), Enclose: enc, BufferSize: 4096,
	})
	for {
		f, _, err := r.Next()
		if err != nil {
			return records, fields
		}
		records++
		fields += len(f)
	}
}

// TestLongLines reads records far larger than the buffer whole. That the
// time stays linear in their size is checked by BenchmarkLongLines (ns per
// byte at two sizes), not by a timed assertion.
func TestLongLines(t *testing.T) {
	const n = 1 << 20
	bodies := longLineBodies(n)
	for _, enc := range []byte{0, '"'} {
		if recs, fields := readAllFields(bodies["fields"]+bodies["fields"], enc); recs != 2 || fields != 2*(n+1) {
			t.Errorf("fields, enclose=%q: %d records, %d fields; want 2, %d", enc, recs, fields, 2*(n+1))
		}
	}
	if recs, fields := readAllFields(bodies["quoted"]+bodies["quoted"], '"'); recs != 2 || fields != 4 {
		t.Errorf("quoted, enclosed: %d records, %d fields; want 2, 4", recs, fields)
	}
	// Without an enclose character the quoted body is n+1 lines of fields.
	if recs, _ := readAllFields(bodies["quoted"], 0); recs != n+1 {
		t.Errorf("quoted, not enclosed: %d records; want %d", recs, n+1)
	}
}

// BenchmarkLongLines reports ns/op at two record sizes; linear reading keeps
// ns per byte (op time divided by the size) the same at both.
func BenchmarkLongLines(b *testing.B) {
	for _, n := range []int{1 << 16, 1 << 20} {
		for name, body := range longLineBodies(n) {
			for _, enc := range []byte{0, '"'} {
				b.Run(fmt.Sprintf("%s/enclose=%q/n=%d", name, enc, n), func(b *testing.B) {
					b.SetBytes(int64(len(body)))
					for i := 0; i < b.N; i++ {
						readAllFields(body, enc)
					}
				})
			}
		}
	}
}
