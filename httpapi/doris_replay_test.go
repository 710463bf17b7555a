package httpapi

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"loadgw/engine"
	"loadgw/types"
)

// TestDorisReplay replays checks of Apache Doris's regression suites
// (testdata/doris/<suite>.txt): the statements and stream loads of the
// suite, and each qt_ query with the block of the suite's .out file as the
// expected output, in the .out form (tab-separated, NULL as \N, values in
// Doris's text forms, BOOLEAN and DOUBLE as the JDBC driver of Doris's
// regression framework writes them). The scripts hold only the checks loadgw passes;
// the report of issue 13 counts the rest.
func TestDorisReplay(t *testing.T) {
	datadriven.Walk(t, "../testdata/doris", func(t *testing.T, path string) {
		srv, _ := newTestServerOpts(t, LoadOptions{})
		s := srv.Config.Handler.(*Server)
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "sql":
				return sqlCommand(t, srv, d, d.Input)
			case "load":
				out, _ := sendLoad(t, srv, d)
				var r struct {
					Status                                                string
					NumberTotalRows, NumberLoadedRows, NumberFilteredRows int
				}
				if err := json.Unmarshal([]byte(strings.NewReplacer(": T,", ": 0,", ": T\n", ": 0\n").Replace(out)), &r); err != nil {
					t.Fatalf("load answer %q: %v", out, err)
				}
				return fmt.Sprintf("%s total=%d loaded=%d filtered=%d\n", r.Status, r.NumberTotalRows, r.NumberLoadedRows, r.NumberFilteredRows)
			case "qt":
				var db string
				d.ScanArgs(t, "db", &db)
				res, err := s.engine.NewSession(db).Execute(d.Input)
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				if d.HasArg("sorted") { // order_qt_: both sides sorted, as the framework does
					return sortedLines(qtRows(res))
				}
				return qtRows(res)
			}
			t.Fatalf("unknown command %s", d.Cmd)
			return ""
		})
	})
}

// qtRows prints a result in the .out form.
func qtRows(res *engine.Result) string {
	var b strings.Builder
	for _, row := range res.Rows {
		for i, v := range row {
			if i > 0 {
				b.WriteByte('\t')
			}
			switch v.Kind {
			case types.Null:
				b.WriteString(`\N`)
			case types.Boolean: // the .out files are written through JDBC
				b.WriteString(strconv.FormatBool(v.I != 0))
			case types.Float:
				b.WriteString(types.JavaDouble(v.F, 32))
			case types.Double:
				b.WriteString(types.JavaDouble(v.F, 64))
			default:
				b.WriteString(outEscaper.Replace(types.Format(v, res.Loc)))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// sortedLines sorts the lines of s.
func sortedLines(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if s == "" {
		return ""
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}

// outEscaper escapes a cell as the .out files' CSVFormat.MYSQL printer does
// (escape character backslash, tab-separated, no quoting).
var outEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\r", `\r`, "\t", "\\\t")
