package sql

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"loadgw/expr"
)

// TestParse runs the scripts in testdata/sql. Commands:
//
//	parse        each statement's Format, or the error
//	spans        each statement's source text by its span
//	coltypes     the resolved type of every column definition
//	expr         ParseExpr, rendered by FormatExpr
//	literals     the type and value of every literal of an expression
//	columns      ParseColumnsHeader
//
// Every successful parse is also checked to round-trip through Format.
func TestParse(t *testing.T) {
	datadriven.Walk(t, "../testdata/sql", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			return runCommand(t, d)
		})
	})
}

func runCommand(t *testing.T, d *datadriven.TestData) string {
	switch d.Cmd {
	case "parse", "spans", "coltypes":
		stmts, err := Parse(d.Input)
		if err != nil {
			return errString(err)
		}
		checkRoundTrip(t, stmts)
		return renderStmts(d.Cmd, d.Input, stmts)
	case "expr", "literals":
		e, err := ParseExpr(d.Input)
		if err != nil {
			return errString(err)
		}
		checkExprRoundTrip(t, e)
		if d.Cmd == "literals" {
			return renderLiterals(e)
		}
		return FormatExpr(e) + "\n"
	case "columns":
		return renderColumns(d.Input)
	}
	t.Fatalf("unknown command %q", d.Cmd)
	return ""
}

func errString(err error) string {
	var se *SyntaxError
	if errors.As(err, &se) {
		return "syntax error:" + err.Error() + "\n"
	}
	return "error: " + err.Error() + "\n"
}

func renderStmts(cmd, src string, stmts []Statement) string {
	var b strings.Builder
	for _, s := range stmts {
		switch cmd {
		case "parse":
			fmt.Fprintf(&b, "%s\n", Format(s))
		case "spans":
			sp := s.Source()
			fmt.Fprintf(&b, "[%d,%d) %s\n", sp.Start, sp.End, sp.Text(src))
		case "coltypes":
			for _, c := range columnDefs(s) {
				fmt.Fprintf(&b, "%s: %s (written %s)\n", c.Name, c.Type, typeAsWritten(c))
			}
		}
	}
	return b.String()
}

// columnDefs collects the column definitions of a statement.
func columnDefs(s Statement) []*ColumnDef {
	switch s := s.(type) {
	case *CreateTable:
		return s.Columns
	case *AlterTable:
		var cols []*ColumnDef
		for _, op := range s.Ops {
			switch op := op.(type) {
			case *AddColumn:
				cols = append(cols, op.Column)
			case *AddColumns:
				cols = append(cols, op.Columns...)
			case *ModifyColumn:
				cols = append(cols, op.Column)
			}
		}
		return cols
	}
	return nil
}

func renderLiterals(e expr.Expr) string {
	var b strings.Builder
	walkExpr(e, func(x expr.Expr) {
		if l, ok := x.(*expr.Literal); ok {
			fmt.Fprintf(&b, "%s: %s @%d\n", FormatLiteral(l), l.Type, l.P)
		}
	})
	return b.String()
}

func renderColumns(input string) string {
	cols, err := ParseColumnsHeader(input)
	if err != nil {
		return errString(err)
	}
	var b strings.Builder
	for _, c := range cols {
		if c.Expr == nil {
			fmt.Fprintf(&b, "%s @%d\n", c.Name, c.P)
		} else {
			fmt.Fprintf(&b, "%s @%d = %s\n", c.Name, c.P, FormatExpr(c.Expr))
		}
	}
	return b.String()
}

// walkExpr calls fn on e and its descendants in pre-order.
func walkExpr(e expr.Expr, fn func(expr.Expr)) {
	if e == nil || reflect.ValueOf(e).IsNil() {
		return
	}
	fn(e)
	for _, c := range children(e) {
		walkExpr(c, fn)
	}
}

func children(e expr.Expr) []expr.Expr {
	switch e := e.(type) {
	case *expr.Unary:
		return []expr.Expr{e.X}
	case *expr.Binary:
		return []expr.Expr{e.L, e.R}
	case *expr.IsNull:
		return []expr.Expr{e.X}
	case *expr.IsBool:
		return []expr.Expr{e.X}
	case *expr.In:
		return append([]expr.Expr{e.X}, e.List...)
	case *expr.Between:
		return []expr.Expr{e.X, e.Lo, e.Hi}
	case *expr.Like:
		return []expr.Expr{e.X, e.Pattern}
	case *expr.Case:
		out := []expr.Expr{e.Operand}
		for _, w := range e.Whens {
			out = append(out, w.Cond, w.Result)
		}
		return append(out, e.Else)
	case *expr.Cast:
		return []expr.Expr{e.X}
	case *expr.Interval:
		return []expr.Expr{e.X}
	case *expr.Call:
		return e.Args
	}
	return nil
}

// checkRoundTrip requires Format's output to parse back to the same text.
func checkRoundTrip(t testing.TB, stmts []Statement) {
	t.Helper()
	for _, s := range stmts {
		want := Format(s)
		again, err := Parse(want)
		if err != nil {
			t.Fatalf("formatted %q does not parse: %v", want, err)
		}
		if len(again) != 1 || Format(again[0]) != want {
			t.Fatalf("round trip of %q changed it", want)
		}
	}
}

func checkExprRoundTrip(t testing.TB, e expr.Expr) {
	t.Helper()
	want := FormatExpr(e)
	again, err := ParseExpr(want)
	if err != nil {
		t.Fatalf("formatted %q does not parse: %v", want, err)
	}
	if got := FormatExpr(again); got != want {
		t.Fatalf("round trip of %q gave %q", want, got)
	}
}

func TestSyntaxErrorType(t *testing.T) {
	_, err := Parse("SELECT 1 FORM t")
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("got %T %v, want *SyntaxError", err, err)
	}
	if se.Line != 1 || se.Col != 14 || se.Offset != 14 {
		t.Fatalf("got line %d col %d offset %d", se.Line, se.Col, se.Offset)
	}
}
