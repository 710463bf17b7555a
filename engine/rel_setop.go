package engine

import (
	"strings"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// setOpNode combines two inputs with INTERSECT or EXCEPT (UNION is
// unionNode); without ALL the result has no duplicate rows. Both inputs produce rows already
// converted to the output types.
type setOpNode struct {
	op          string
	all         bool
	left, right relNode
	columns     []expr.Column
}

func (n *setOpNode) cols() []expr.Column { return n.columns }
func (n *setOpNode) estimate() int64     { return n.left.estimate() + n.right.estimate() }
func (n *setOpNode) explain(bool) (string, []relNode) {
	s := n.op
	if n.all {
		s += " ALL"
	}
	return s, []relNode{n.left, n.right}
}

func (n *setOpNode) run(x *execCtx, fn rowFn) error {
	// INTERSECT / EXCEPT: count the right side's rows, then stream the left.
	counts := map[string]int{}
	var key []byte
	err := n.right.run(x, func(row []types.Value) (bool, error) {
		key = rowKey(key[:0], row)
		counts[string(key)]++
		return true, nil
	})
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	return n.left.run(x, func(row []types.Value) (bool, error) {
		key = rowKey(key[:0], row)
		k := string(key)
		if !n.all {
			if seen[k] {
				return true, nil
			}
			seen[k] = true
		}
		c := counts[k]
		keep := c > 0
		if n.op == "EXCEPT" {
			keep = c == 0
		}
		if n.all && c > 0 {
			counts[k]-- // INTERSECT ALL keeps min(m, n), EXCEPT ALL m-n copies
		}
		if !keep {
			return true, nil
		}
		return fn(row)
	})
}

// planSetOp plans UNION / INTERSECT / EXCEPT and the ORDER BY and LIMIT
// over the combined rows. Column names are the first branch's; each column
// takes the common type of the branches (Doris's wider type).
func (p *planner) planSetOp(q *sql.Select) (*queryPlan, error) {
	if q.Set.Op == "UNION" {
		return p.planUnion(q)
	}
	left, err := p.planQuery(q.Set.Left)
	if err != nil {
		return nil, err
	}
	root, out := left.root, left.out
	if q.Set.Op != "" {
		right, err := p.planQuery(q.Set.Right)
		if err != nil {
			return nil, err
		}
		if len(right.out) != len(left.out) {
			return nil, errorf("Operands have unequal number of columns:\n'%s' has %d column(s)\n'%s' has %d column(s)", slotList(left.out, 0), len(left.out), slotList(right.out, len(left.out)), len(right.out))
		}
		if q.Set.All && q.Set.Op != "UNION" {
			return nil, errorf("INTERSECT and EXCEPT does not support ALL qualified")
		}
		out = make([]Column, len(left.out))
		lconv := make([]expr.Compiled, len(out))
		rconv := make([]expr.Compiled, len(out))
		cols := make([]expr.Column, len(out))
		for i := range out {
			lt, rt := left.out[i].Type, right.out[i].Type
			t, ok := expr.CommonType(lt, rt)
			if !ok {
				return nil, errorf("Can not find compatible type for %s and %s", lt, rt)
			}
			if t.Kind == types.Null {
				t = types.Type{Kind: types.TinyInt}
			}
			out[i] = Column{Name: left.out[i].Name, Type: t}
			lconv[i] = expr.CastTo(expr.ColumnSlot(i, lt), t)
			rconv[i] = expr.CastTo(expr.ColumnSlot(i, rt), t)
			cols[i] = expr.Column{Name: left.out[i].Name, Type: t}
		}
		root = &setOpNode{op: q.Set.Op, all: q.Set.All, columns: cols,
			left:  &projectNode{child: left.root, exprs: lconv, columns: cols, texts: names(out)},
			right: &projectNode{child: right.root, exprs: rconv, columns: cols, texts: names(out)}}
	}
	return p.orderSetOp(q, root, out)
}

func names(cols []Column) []string {
	var out []string
	for _, c := range cols {
		out = append(out, c.Name)
	}
	return out
}

// orderSetOp binds ORDER BY (output names and positions) and LIMIT over
// the rows of a set operation.
func (p *planner) orderSetOp(q *sql.Select, root relNode, out []Column) (*queryPlan, error) {
	cols := make([]expr.Column, len(out))
	items := make([]sql.SelectItem, len(out))
	for i, c := range out {
		cols[i] = expr.Column{Name: c.Name, Type: c.Type}
		items[i] = sql.SelectItem{Expr: &expr.ColumnRef{Name: c.Name}}
	}
	pl := &plan{scope: &expr.Scope{Columns: cols}, limit: q.Limit, mkScope: p.scope}
	for i, c := range out {
		pl.outs = append(pl.outs, expr.ColumnSlot(i, c.Type))
		pl.outCols = append(pl.outCols, c)
	}
	if err := p.s.planOrder(pl, q, items, pl.scope); err != nil {
		return nil, err
	}
	if len(pl.order) == 0 && pl.limit == nil {
		return &queryPlan{root: root, out: out}, nil
	}
	return &queryPlan{root: finishBlock(pl, root, items), out: out}, nil
}

func joinComma(s []string) string { return strings.Join(s, ", ") }

// slotList prints output columns as Nereids prints a plan's output slots:
// [k#0, v#1], numbering from first.
func slotList(cols []Column, first int) string {
	var parts []string
	for i, c := range cols {
		parts = append(parts, c.Name+"#"+itoa(first+i))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
