package expr_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// TestDataDriven runs the scripts in testdata/expr. Commands:
//
//	eval [tz=Z] [now=RFC3339]       lines: expression → value (type) | error: …
//	eval-row [tz=Z] [now=T] name=type ...
//	                                lines: `row v1 | v2 | …` sets the row
//	                                (NULL is NULL); other lines are
//	                                expressions evaluated against it.
//	agg name=type ...               lines: `row …` rows to aggregate, then
//	                                aggregate calls → result (type)
//
// Column names may be qualified: t.a=int.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "../testdata/expr", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			h := newHarness(t, d)
			var out strings.Builder
			for _, line := range strings.Split(d.Input, "\n") {
				if line == "" || strings.HasPrefix(line, "#") {
					continue
				}
				if r, ok := strings.CutPrefix(line, "row "); ok {
					h.addRow(t, r)
					continue
				}
				fmt.Fprintf(&out, "%s → %s\n", line, h.run(line))
			}
			if d.Cmd == "agg" {
				return out.String()
			}
			return out.String()
		})
	})
}

type harness struct {
	cmd   string
	scope *expr.Scope
	ctx   *expr.Context
	rows  [][]types.Value
}

func newHarness(t *testing.T, d *datadriven.TestData) *harness {
	h := &harness{cmd: d.Cmd, scope: &expr.Scope{}, ctx: expr.NewContext(time.UTC, time.Date(2026, 11, 29, 10, 0, 0, 123456789, time.UTC))}
	for _, a := range d.CmdArgs {
		v := ""
		if len(a.Vals) > 0 {
			v = a.Vals[0]
		}
		switch a.Key {
		case "tz":
			loc, err := loadTZ(v)
			if err != nil {
				t.Fatal(err)
			}
			h.ctx.Loc = loc
		case "now":
			now, err := time.Parse(time.RFC3339Nano, v)
			if err != nil {
				t.Fatal(err)
			}
			h.ctx.Now = now
		case "clause":
			h.scope.Clause = v
		default:
			typ, err := types.ParseTypeString(strings.Join(a.Vals, ","))
			if err != nil {
				t.Fatalf("column %s: %v", a.Key, err)
			}
			col := expr.Column{Name: a.Key, Type: typ}
			if tbl, name, ok := strings.Cut(a.Key, "."); ok {
				col.Table, col.Name = tbl, name
			}
			h.scope.Columns = append(h.scope.Columns, col)
		}
	}
	return h
}

func loadTZ(s string) (*time.Location, error) {
	if len(s) == 6 && (s[0] == '+' || s[0] == '-') {
		var hh, mm int
		if _, err := fmt.Sscanf(s[1:], "%d:%d", &hh, &mm); err != nil {
			return nil, err
		}
		off := hh*3600 + mm*60
		if s[0] == '-' {
			off = -off
		}
		return time.FixedZone(s, off), nil
	}
	return time.LoadLocation(s)
}

func (h *harness) addRow(t *testing.T, s string) {
	fields := strings.Split(s, "|")
	if len(fields) != len(h.scope.Columns) {
		t.Fatalf("row %q: want %d fields", s, len(h.scope.Columns))
	}
	row := make([]types.Value, len(fields))
	for i, f := range fields {
		f = strings.TrimSpace(f)
		if f == "NULL" {
			continue
		}
		v, err := types.ParseValue(f, h.scope.Columns[i].Type, h.ctx.Loc)
		if err != nil {
			t.Fatalf("row field %q: %v", f, err)
		}
		row[i] = v
	}
	h.rows = append(h.rows, row)
}

func (h *harness) run(line string) string {
	e, err := sql.ParseExpr(line)
	if err != nil {
		return "parse error: " + err.Error()
	}
	if h.cmd == "agg" {
		return h.runAgg(e)
	}
	c, err := expr.Bind(e, h.scope)
	if err != nil {
		return "error: " + err.Error()
	}
	var row []types.Value
	if len(h.rows) > 0 {
		row = h.rows[len(h.rows)-1]
	}
	v, err := c.Eval(row, h.ctx)
	if err != nil {
		return "error: " + err.Error()
	}
	return show(v, c.Type(), h.ctx.Loc)
}

func show(v types.Value, t types.Type, loc *time.Location) string {
	s := types.Format(v, loc)
	if isStr(v.Kind) {
		s = "'" + s + "'"
	}
	return fmt.Sprintf("%s (%s)", s, typeString(t))
}

func isStr(k types.Kind) bool { return k == types.Char || k == types.Varchar || k == types.String }

func typeString(t types.Type) string {
	if t.Kind == types.Null {
		return "null"
	}
	return t.String()
}

func (h *harness) runAgg(e expr.Expr) string {
	call, ok := e.(*expr.Call)
	if !ok {
		return "not a call"
	}
	args := make([]expr.Compiled, len(call.Args))
	argTypes := make([]types.Type, len(call.Args))
	for i, a := range call.Args {
		c, err := expr.Bind(a, h.scope)
		if err != nil {
			return "error: " + err.Error()
		}
		args[i], argTypes[i] = c, c.Type()
	}
	f, t, err := expr.NewAggregate(call, argTypes)
	if err != nil {
		return "error: " + err.Error()
	}
	st := f.NewState()
	vals := make([]types.Value, len(args))
	for _, row := range h.rows {
		for i, a := range args {
			v, err := a.Eval(row, h.ctx)
			if err != nil {
				return "error: " + err.Error()
			}
			vals[i] = v
		}
		if err := f.Add(st, vals); err != nil {
			return "error: " + err.Error()
		}
	}
	return show(f.Result(st), t, h.ctx.Loc)
}
