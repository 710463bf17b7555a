package engine

import (
	"math"
	"slices"

	"loadgw/expr"
)

// joinPlan is one left-deep join order and the estimated rows after each
// step (ests[0] is the first relation's).
type joinPlan struct {
	order []int
	ests  []int64
	cost  float64
}

// bestOrder chooses the join order: from each relation as the start, it
// adds at each step the relation an unused equality connects whose join
// is estimated to give the fewest rows (a cross product only when none is
// connected), and keeps the order of least cost, the sum of the rows
// every join reads and produces. A join on a = b is estimated as
// |left| * |right| / d, d the distinct values of the key (see
// keyDistinct).
func (jo *joinOrder) bestOrder(conds []expr.Expr, refs [][]int, used []bool) joinPlan {
	var best joinPlan
	for start := range jo.rels {
		p := jo.greedy(start, conds, refs, used)
		if best.order == nil || p.cost < best.cost {
			best = p
		}
	}
	return best
}

func (jo *joinOrder) greedy(start int, conds []expr.Expr, refs [][]int, used []bool) joinPlan {
	in := map[int]bool{start: true}
	cur := float64(jo.rels[start].node.estimate())
	p := joinPlan{order: []int{start}, ests: []int64{int64(cur)}}
	for len(p.order) < len(jo.rels) {
		next, out := -1, 0.0
		connectedBest := false
		for i, r := range jo.rels {
			if in[i] {
				continue
			}
			est := float64(r.node.estimate())
			d, connected := jo.distinct(i, in, conds, refs, used)
			o := cur * est
			if connected {
				o /= d
			}
			switch {
			case next < 0, connected && !connectedBest, connected == connectedBest && o < out:
				next, out, connectedBest = i, o, connected
			}
		}
		out = max(out, 1)
		p.cost += cur + float64(jo.rels[next].node.estimate()) + out
		cur = out
		in[next] = true
		p.order = append(p.order, next)
		p.ests = append(p.ests, int64(min(out, 1<<62)))
	}
	return p
}

// distinct estimates the distinct key values of the most selective
// equality joining relation i to those in: the rows of the smaller of the
// two tables it relates. connected is false when no equality joins them.
func (jo *joinOrder) distinct(i int, in map[int]bool, conds []expr.Expr, refs [][]int, used []bool) (float64, bool) {
	d, connected := 1.0, false
	for k, c := range conds {
		if used[k] || !isEquality(c) || !slices.Contains(refs[k], i) || len(refs[k]) < 2 || !subset(without(refs[k], i), in) {
			continue
		}
		connected = true
		d = max(d, jo.keyDistinct(c.(*expr.Binary), refs[k]))
	}
	return d, connected
}

// keyDistinct guesses the distinct values of equality b between the
// relations rs: the rows of a table whose leading key column one side
// names (an id, as c_custkey in c_custkey = o_custkey), else, for two
// columns that are no table's id (c_nationkey = s_nationkey), the square
// root of the smaller table's rows.
func (jo *joinOrder) keyDistinct(b *expr.Binary, rs []int) float64 {
	small, id := int64(-1), int64(-1)
	for _, r := range rs {
		base := baseRows(jo.rels[r].node)
		if small < 0 || base < small {
			small = base
		}
		if (jo.leadingKey(r, b.L) || jo.leadingKey(r, b.R)) && (id < 0 || base < id) {
			id = base
		}
	}
	if id > 0 {
		return float64(id)
	}
	return math.Sqrt(float64(max(small, 1)))
}

// leadingKey reports whether e is the first key column of the table
// relation r scans.
func (jo *joinOrder) leadingKey(r int, e expr.Expr) bool {
	ref, ok := e.(*expr.ColumnRef)
	if !ok {
		return false
	}
	sc := scanUnder(jo.rels[r].node)
	if sc == nil || len(sc.t.Columns) == 0 || !sc.t.Columns[0].IsKey {
		return false
	}
	c, i := lookupScope(&expr.Scope{Columns: sc.columns}, ref)
	return c != nil && i == 0
}

// scanUnder is the scan under filters and renames of n, or nil.
func scanUnder(n relNode) *scanNode {
	for {
		switch x := n.(type) {
		case *scanNode:
			return x
		case *filterNode:
			n = x.child
		case *renameNode:
			n = x.child
		default:
			return nil
		}
	}
}

// baseRows is the rows of the table under a relation before its filters,
// or the relation's estimate when it is not a table.
func baseRows(n relNode) int64 {
	for {
		switch x := n.(type) {
		case *scanNode:
			return max(x.rows, 1)
		case *filterNode:
			n = x.child
		case *renameNode:
			n = x.child
		default:
			return max(n.estimate(), 1)
		}
	}
}
