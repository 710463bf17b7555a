package expr

import (
	"fmt"
	"strings"
)

// Window is a window function call: Func OVER (PARTITION BY ... ORDER BY
// ... frame). Func is the call as written (row_number(), sum(x), lag(x, 1),
// ...). Doris has no named windows (WINDOW w AS), so the specification is
// always inline.
type Window struct {
	P           int
	Func        *Call
	PartitionBy []Expr
	OrderBy     []WindowOrder
	Frame       *Frame // nil when no frame was written
}

// WindowOrder is one ORDER BY key of a window specification.
type WindowOrder struct {
	X    Expr
	Desc bool
	// NullsFirst is nil when NULLS FIRST|LAST was not written (ascending
	// keys put NULL first, descending keys last).
	NullsFirst *bool
}

// FrameUnits is ROWS or RANGE.
type FrameUnits uint8

// The frame units.
const (
	FrameRows FrameUnits = iota
	FrameRange
)

func (u FrameUnits) String() string {
	if u == FrameRange {
		return "RANGE"
	}
	return "ROWS"
}

// BoundType is the kind of one frame boundary.
type BoundType uint8

// The boundary kinds, in frame order.
const (
	UnboundedPreceding BoundType = iota
	Preceding
	CurrentRow
	Following
	UnboundedFollowing
)

// enumName is Doris's FrameBoundType enum name (WindowFrame.toString).
func (b BoundType) enumName() string {
	return [...]string{"UNBOUNDED_PRECEDING", "PRECEDING", "CURRENT_ROW", "FOLLOWING", "UNBOUNDED_FOLLOWING"}[b]
}

// String is the boundary as SQL writes it.
func (b BoundType) String() string {
	return [...]string{"UNBOUNDED PRECEDING", "PRECEDING", "CURRENT ROW", "FOLLOWING", "UNBOUNDED FOLLOWING"}[b]
}

// Bound is one frame boundary; Offset is set for PRECEDING and FOLLOWING.
type Bound struct {
	Type   BoundType
	Offset Expr
}

// Frame is ROWS|RANGE [BETWEEN] start [AND end]. End is nil when only a
// start was written.
type Frame struct {
	Units FrameUnits
	Start Bound
	End   *Bound
}

// WindowFuncs are the functions that exist only with OVER.
var windowOnly = map[string]bool{
	"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true,
	"ntile": true, "lag": true, "lead": true, "first_value": true, "last_value": true, "nth_value": true,
}

// IsWindowOnly reports whether name (lower case) is a function that needs
// an OVER clause.
func IsWindowOnly(name string) bool { return windowOnly[name] }

// analyticDenied is Doris's text (CheckAfterRewrite) for a window function
// called without OVER.
func (s *Scope) analyticDenied() error {
	clause := "PROJECT"
	if s != nil && s.Clause != "" {
		clause = s.Clause
	}
	return &Error{Msg: "analytic function is not allowed in LOGICAL_" + clause}
}

// windowDenied is Doris's text (CheckAnalysis) for a window expression in a
// clause that cannot hold one.
func (s *Scope) windowDenied(w *Window) error {
	clause := "PROJECT"
	if s != nil && s.Clause != "" {
		clause = s.Clause
	}
	return &Error{Msg: fmt.Sprintf("LOGICAL_%s can not contains WindowExpression expression: %s", clause, String(w))}
}

func (b *binder) bindWindow(w *Window) (Compiled, error) {
	if b.scope == nil || b.scope.Window == nil {
		return nil, b.scope.windowDenied(w)
	}
	return b.scope.Window(w)
}

func windowChildren(w *Window) []Expr {
	out := append([]Expr{w.Func}, w.PartitionBy...)
	for _, o := range w.OrderBy {
		out = append(out, o.X)
	}
	if w.Frame != nil {
		out = append(out, w.Frame.Start.Offset)
		if w.Frame.End != nil {
			out = append(out, w.Frame.End.Offset)
		}
	}
	return out
}

// writeWindow renders w as Nereids's WindowExpression.toSql does:
// `sum(id) OVER(PARTITION BY g ORDER BY k asc null first ROWS BETWEEN ...)`.
func writeWindow(sb *strings.Builder, w *Window) {
	writeExpr(sb, w.Func)
	sb.WriteString(" OVER(")
	var parts []string
	if len(w.PartitionBy) > 0 {
		var ps []string
		for _, p := range w.PartitionBy {
			ps = append(ps, String(p))
		}
		parts = append(parts, "PARTITION BY "+strings.Join(ps, ", "))
	}
	if len(w.OrderBy) > 0 {
		var os []string
		for _, o := range w.OrderBy {
			os = append(os, OrderKeySQL(o))
		}
		parts = append(parts, "ORDER BY "+strings.Join(os, ", "))
	}
	if w.Frame != nil {
		parts = append(parts, FrameSQL(w.Frame))
	}
	sb.WriteString(strings.Join(parts, " "))
	sb.WriteString(")")
}

// OrderKeySQL is Nereids's OrderKey.toSql: `x asc null first`, `x desc`.
func OrderKeySQL(o WindowOrder) string {
	nullsFirst := !o.Desc
	if o.NullsFirst != nil {
		nullsFirst = *o.NullsFirst
	}
	s := String(o.X) + pick(o.Desc, " desc", " asc")
	if nullsFirst {
		s += " null first"
	}
	return s
}

// FrameSQL is Nereids's WindowFrame.toSql: `ROWS BETWEEN 1 PRECEDING AND
// CURRENT ROW`.
func FrameSQL(f *Frame) string {
	s := f.Units.String() + " "
	if f.End == nil {
		return s + boundSQL(f.Start)
	}
	return s + "BETWEEN " + boundSQL(f.Start) + " AND " + boundSQL(*f.End)
}

func boundSQL(b Bound) string {
	if b.Offset != nil {
		return String(b.Offset) + " " + b.Type.String()
	}
	return b.Type.String()
}

// FrameString is Nereids's WindowFrame.toString, used in its refusals:
// `WindowFrame(ROWS, UNBOUNDED_PRECEDING, CURRENT_ROW)`.
func FrameString(f *Frame) string {
	s := "WindowFrame(" + f.Units.String() + ", " + boundString(f.Start) + ", "
	if f.End != nil {
		s += boundString(*f.End)
	}
	return s + ")"
}

func boundString(b Bound) string {
	if b.Offset != nil {
		return String(b.Offset) + " " + b.Type.enumName()
	}
	return b.Type.enumName()
}

// Pos returns the offset of the function name.
func (w *Window) Pos() int { return w.P }
func (*Window) exprNode()  {}

// ArityError is Doris's text for a call of name with n arguments when it
// takes between min and max (max < 0: any number from min).
func ArityError(name string, min, max, n int) error {
	return arityError(name, &funcDef{min: min, max: max}, n)
}
