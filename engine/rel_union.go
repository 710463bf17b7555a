package engine

import (
	"fmt"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// unionNode is a chain of UNION [ALL] over any number of branches, each
// already converted to the output types: a UNION ALL of 10,000 SELECTs is
// one node of 10,000 inputs, not 10,000 nested nodes each converting every
// row of the ones below it again.
type unionNode struct {
	all      bool
	branches []relNode
	columns  []expr.Column
}

func (n *unionNode) cols() []expr.Column { return n.columns }
func (n *unionNode) estimate() int64 {
	var est int64
	for _, b := range n.branches {
		est = min(est+b.estimate(), 1<<62)
	}
	return est
}
func (n *unionNode) explain(bool) (string, []relNode) {
	s := "UNION"
	if n.all {
		s += " ALL"
	}
	if len(n.branches) > 2 {
		s += fmt.Sprintf(" (%d inputs)", len(n.branches))
	}
	return s, n.branches
}

func (n *unionNode) run(x *execCtx, fn rowFn) error {
	var seen map[string]struct{}
	if !n.all {
		seen = map[string]struct{}{}
	}
	var key []byte
	stopped := false
	emit := func(row []types.Value) (bool, error) {
		if seen != nil {
			key = rowKey(key[:0], row)
			if _, ok := seen[string(key)]; ok {
				return true, nil
			}
			seen[string(key)] = struct{}{}
		}
		more, err := fn(row)
		stopped = !more
		return more, err
	}
	for _, b := range n.branches {
		if err := x.poll(); err != nil {
			return err
		}
		if err := b.run(x, emit); err != nil || stopped {
			return err
		}
	}
	return nil
}

// unionBranches lists the branches of the chain of UNIONs q heads that
// share q's ALL: (a UNION ALL b) UNION ALL c is a, b, c. A branch with
// its own ORDER BY, LIMIT or WITH, or another operator, stays one branch.
func unionBranches(q *sql.Select, out []*sql.Select) []*sql.Select {
	all := q.Set.All
	flat := func(s *sql.Select) bool {
		return s.Set != nil && s.Set.Op == "UNION" && s.Set.All == all && s.With == nil && len(s.OrderBy) == 0 && s.Limit == nil
	}
	// The parser nests chains to the left: walk that spine without
	// recursion, then each right branch in order.
	rights := []*sql.Select{q.Set.Right}
	s := q.Set.Left
	for flat(s) {
		rights = append(rights, s.Set.Right)
		s = s.Set.Left
	}
	out = append(out, s)
	for i := len(rights) - 1; i >= 0; i-- {
		if r := rights[i]; flat(r) {
			out = unionBranches(r, out)
		} else {
			out = append(out, r)
		}
	}
	return out
}

// planUnion plans a chain of UNIONs as one node. Each column's type is
// what the nested binary operations give (the common type of the first
// two branches, then of that and the third, and so on), and a branch's
// values go through the same conversions they would there.
func (p *planner) planUnion(q *sql.Select) (*queryPlan, error) {
	list := unionBranches(q, nil)
	first, err := p.planQuery(list[0])
	if err != nil {
		return nil, err
	}
	width := len(first.out)
	plans := []*queryPlan{first}
	// levels[k][c] is column c's type after branch k joins (levels[0] is
	// the first branch's own types).
	levels := [][]types.Type{columnTypes(first.out)}
	for _, b := range list[1:] {
		right, err := p.planQuery(b)
		if err != nil {
			return nil, err
		}
		if len(right.out) != width {
			left := make([]Column, width)
			for i, c := range first.out {
				left[i] = Column{Name: c.Name, Type: levels[len(levels)-1][i]}
			}
			return nil, errorf("Operands have unequal number of columns:\n'%s' has %d column(s)\n'%s' has %d column(s)", slotList(left, 0), width, slotList(right.out, width), len(right.out))
		}
		prev := levels[len(levels)-1]
		next := make([]types.Type, width)
		for i := range next {
			t, ok := expr.CommonType(prev[i], right.out[i].Type)
			if !ok {
				return nil, errorf("Can not find compatible type for %s and %s", prev[i], right.out[i].Type)
			}
			if t.Kind == types.Null {
				t = types.Type{Kind: types.TinyInt}
			}
			next[i] = t
		}
		plans = append(plans, right)
		levels = append(levels, next)
	}
	final := levels[len(levels)-1]
	out := make([]Column, width)
	cols := make([]expr.Column, width)
	for i := range out {
		out[i] = Column{Name: first.out[i].Name, Type: final[i]}
		cols[i] = expr.Column{Name: first.out[i].Name, Type: final[i]}
	}
	// changes[c] lists the levels at which column c's type changes; a
	// branch converts to its own level's type, then through each later
	// change, as the nested operations would.
	changes := make([][]int, width)
	for c := range width {
		for k := 2; k < len(levels); k++ {
			if levels[k][c] != levels[k-1][c] {
				changes[c] = append(changes[c], k)
			}
		}
	}
	node := &unionNode{all: q.Set.All, columns: cols}
	for k, bp := range plans {
		level := max(k, 1)
		conv := make([]expr.Compiled, width)
		for c := range width {
			e := expr.CastTo(expr.ColumnSlot(c, bp.out[c].Type), levels[level][c])
			for _, m := range changes[c] {
				if m > level {
					e = expr.CastTo(e, levels[m][c])
				}
			}
			conv[c] = e
		}
		node.branches = append(node.branches, &projectNode{child: bp.root, exprs: conv, columns: cols, texts: names(out)})
	}
	return p.orderSetOp(q, node, out)
}

func columnTypes(cols []Column) []types.Type {
	out := make([]types.Type, len(cols))
	for i, c := range cols {
		out[i] = c.Type
	}
	return out
}
