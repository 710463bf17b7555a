package engine

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"loadgw/clock"
	"loadgw/types"
)

// TestDataDriven runs the scripts of testdata/engine. Commands:
//
//	sql [db=NAME]          run the input's statements in the script's session
//	restart                close and reopen the engine on the same store
//	clock set=RFC3339 | advance=DURATION
//	index-check table=T    each index of T: its entries against its rows
//	index-rows             rows index lookups fetched since the last index-rows
//	sample-rows min=N      sample the filters of scans of tables of at least
//	                       N estimated rows (plan_sample.go), for this script
//	spill-files            whether queries wrote spill files since the last
//	                       spill-files, and how many are left in tmp-query/
//
// A fresh session keeps its variables across sql commands until restart.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "../testdata/engine", func(t *testing.T, path string) {
		dir := t.TempDir()
		clk := clock.NewManual(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC))
		open := func() *Engine { return openScriptEngine(t, dir, clk) }
		e := open()
		defer func() { e.Close() }()
		sess := e.NewSession("")
		var spillSeen int64
		indexSeen := indexLookupRows.Load()
		savedSampleMin := sampleMinRows
		defer func() { sampleMinRows = savedSampleMin }()
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "sql":
				if d.HasArg("db") {
					var db string
					d.ScanArgs(t, "db", &db)
					sess.db = db
				}
				res, err := sess.Execute(d.Input)
				if err != nil {
					return "error: " + maskRuntime(err.Error()) + "\n"
				}
				return formatResult(res)
			case "restart":
				db := sess.db
				if err := e.Close(); err != nil {
					t.Fatal(err)
				}
				e = open()
				sess = e.NewSession(db)
				return "ok\n"
			case "sample-rows":
				d.ScanArgs(t, "min", &sampleMinRows)
				return "ok\n"
			case "index-rows":
				// Rows fetched through index lookups since the last index-rows.
				n := indexLookupRows.Load() - indexSeen
				indexSeen += n
				return fmt.Sprintf("%d\n", n)
			case "index-check":
				// The entries of each built index of a table against its rows.
				var table string
				d.ScanArgs(t, "table", &table)
				out, err := e.CheckIndexes(sess.db, table)
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				return out
			case "reclaim":
				n, err := e.ReclaimTTL()
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				return fmt.Sprintf("reclaimed %d\n", n)
			case "spill-files":
				// Spill files written since the last spill-files, and the
				// files left in tmp-query/ (always none after a query).
				n := e.SpillFiles() - spillSeen
				spillSeen = e.SpillFiles()
				ents, _ := os.ReadDir(e.SpillDir())
				return fmt.Sprintf("written %s, left %d\n", spillCount(n), len(ents))
			case "reclaim-binlog":
				n, records, err := e.ReclaimBinlogRecords()
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				return fmt.Sprintf("cleaned %d tables, %d records\n", n, records)
			case "clock":
				if d.HasArg("set") {
					var v string
					d.ScanArgs(t, "set", &v)
					ts, err := time.Parse(time.RFC3339Nano, v)
					if err != nil {
						t.Fatal(err)
					}
					clk.Set(ts)
				}
				if d.HasArg("advance") {
					var v string
					d.ScanArgs(t, "advance", &v)
					dur, err := time.ParseDuration(v)
					if err != nil {
						t.Fatal(err)
					}
					clk.Advance(dur)
				}
				return clk.Now().UTC().Format(time.RFC3339Nano) + "\n"
			}
			t.Fatalf("unknown command %q", d.Cmd)
			return ""
		})
	})
}

// formatResult renders a result as a small text table; types are shown in
// the header so scripts pin result types too.
func formatResult(res *Result) string {
	if !res.ResultSet {
		if res.Affected > 0 {
			return fmt.Sprintf("ok, %d rows\n", res.Affected)
		}
		return "ok\n"
	}
	var b strings.Builder
	head := make([]string, len(res.Columns))
	for i, c := range res.Columns {
		head[i] = c.Name + ":" + c.Type.String()
	}
	b.WriteString(strings.Join(head, " | ") + "\n")
	loc := res.Loc
	if loc == nil {
		loc = time.UTC
	}
	for _, row := range res.Rows {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = types.Format(v, loc)
		}
		b.WriteString(strings.Join(cells, " | ") + "\n")
	}
	return b.String()
}

// spillCount prints "none" or "some": how many files a spill writes
// depends on row sizes, not on the behaviour under test.
func spillCount(n int64) string {
	if n == 0 {
		return "none"
	}
	return "some"
}
