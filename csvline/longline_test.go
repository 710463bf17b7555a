package csvline

import (
	"strings"
	"testing"
	"time"
)

// TestLongLines reads records far larger than the buffer, with many fields
// and long enclosed fields: the time must stay linear in their size.
func TestLongLines(t *testing.T) {
	many := strings.Repeat("a,", 1<<20) + "z\n"
	quoted := `"` + strings.Repeat("x\n,", 1<<20) + `",b` + "\n"
	for name, body := range map[string]string{"fields": many, "quoted": quoted} {
		for _, enc := range []byte{0, '"'} {
			start := time.Now()
			r := NewReader(strings.NewReader(body+body), Options{
				ColumnSeparator: []byte(","), Enclose: enc, BufferSize: 4096,
			})
			n := 0
			for {
				fields, _, err := r.Next()
				if err != nil {
					break
				}
				n += len(fields)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("%s enclose=%q: %v for %d fields", name, enc, d, n)
			}
			if n == 0 {
				t.Errorf("%s: no fields", name)
			}
		}
	}
}
