package engine

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"loadgw/clock"
	"loadgw/labels"
)

// TestTxnDataDriven runs the scripts of testdata/txn: transactions of
// several statements over sessions of one engine with a label store.
// Commands:
//
//	sql [session=NAME] [db=NAME]   run the input in session NAME ("a" by
//	                               default, started on first use); prints
//	                               the result and the OK packet's info
//	close session=NAME             end the session (a dropped connection)
//	restart                        close and reopen the engine; sessions end
//
// Made-up labels print as txn_insert_<query id> and label_<query id>.
func TestTxnDataDriven(t *testing.T) {
	datadriven.Walk(t, "../testdata/txn", func(t *testing.T, path string) {
		dir := t.TempDir()
		clk := clock.NewManual(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC))
		open := func() *Engine {
			e := openScriptEngine(t, dir, clk)
			txns, err := labels.Open(e.Store(), clk, labels.Options{})
			if err != nil {
				t.Fatal(err)
			}
			e.UseLabels(txns)
			return e
		}
		e := open()
		defer func() { e.Close() }()
		sessions := map[string]*Session{}
		session := func(d *datadriven.TestData) *Session {
			name := "a"
			if d.HasArg("session") {
				d.ScanArgs(t, "session", &name)
			}
			s, ok := sessions[name]
			if !ok {
				s = e.NewSession("")
				sessions[name] = s
			}
			return s
		}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "sql":
				s := session(d)
				if d.HasArg("db") {
					d.ScanArgs(t, "db", &s.db)
				}
				res, err := s.Execute(d.Input)
				if err != nil {
					return "error: " + maskLabels(err.Error()) + "\n"
				}
				out := formatResult(res)
				if res.Info != "" {
					out += "info: " + maskLabels(res.Info) + "\n"
				}
				return out
			case "close":
				var name string
				d.ScanArgs(t, "session", &name)
				sessions[name].Close()
				delete(sessions, name)
				return "ok\n"
			case "wait-alter":
				// Waits for the schema change jobs waiting for loads to end.
				for deadline := time.Now().Add(10 * time.Second); e.alterWait.count() > 0; {
					if time.Now().After(deadline) {
						t.Fatal("schema change jobs still waiting after 10s")
					}
					time.Sleep(time.Millisecond)
				}
				return "ok\n"
			case "restart":
				if err := e.Close(); err != nil {
					t.Fatal(err)
				}
				e = open()
				clear(sessions)
				return "ok\n"
			case "clock":
				var v string
				d.ScanArgs(t, "advance", &v)
				dur, err := time.ParseDuration(v)
				if err != nil {
					t.Fatal(err)
				}
				clk.Advance(dur)
				return fmt.Sprintln(clk.Now().UTC().Format(time.RFC3339))
			}
			t.Fatalf("unknown command %q", d.Cmd)
			return ""
		})
	})
}

var (
	madeUpTxnLabel    = regexp.MustCompile(`txn_insert_[0-9a-f]+-[0-9a-f]+`)
	madeUpInsertLabel = regexp.MustCompile(`label_[0-9a-f]+_[0-9a-f]+`)
)

func maskLabels(s string) string {
	s = madeUpTxnLabel.ReplaceAllString(s, "txn_insert_<query id>")
	return madeUpInsertLabel.ReplaceAllString(s, "label_<query id>")
}
