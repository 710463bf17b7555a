package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"

	"loadgw/catalog"
	"loadgw/expr"
)

// Filtering on the stored bytes. The pushed conjuncts that compare an
// integer-like column (integers, DATE, DATETIME, BOOLEAN, DECIMAL up to 18
// digits) with a constant or with another such column (expr.AsIntCompare)
// are evaluated on the row's stored key and value before anything else of
// the row is decoded: the scanner reads just those varints of the value
// and the leading key columns up to the last one compared
// (catalog.IntReader), and steps over the rest. Most rows of a selective
// scan are then dropped for a few nanoseconds each; the key, the other
// columns and the conjuncts left are decoded and evaluated only for the
// rows that pass. As in Doris's segment iterator, where such column
// predicates run on the column pages before the other columns are read,
// the conjuncts are not evaluated in their written order: a row passes
// when every one is TRUE, whatever the order.

// encFilterOn turns filtering on the stored bytes on; tests turn it off
// to compare the answers.
var encFilterOn = true

// encScans counts the scans that filtered on the stored bytes, for tests.
var encScans atomic.Int64

// encCheck is one conjunct on the stored bytes: the column read at slot a
// of the reader lies in [lo, hi] (or, with ne, is not lo); with b >= 0 it
// is compared by op with the column at slot b.
type encCheck struct {
	a, b   int
	lo, hi int64
	ne     bool
	op     string
}

// encPlan is a scan's split of its pushed filter: the columns and checks
// evaluated on the stored bytes, and rest, the conjunction of the others
// (nil when none is left). unread lists the columns of cols the query
// reads nowhere else: with no conjunct left they are not decoded.
type encPlan struct {
	cols   []int
	checks []encCheck
	rest   expr.Compiled
	unread []int
}

// encodedPlan is the scan's encPlan, nil when no conjunct is evaluated on
// the stored bytes. It is computed once per scan node, before any worker
// of a pipelined scan starts (the workers then only read it).
func (n *scanNode) encodedPlan(rc *catalog.RowCodec) *encPlan {
	if !n.encDone {
		n.enc, n.encDone = planEncoded(rc, n.filter), true
		if n.enc != nil && n.enc.rest == nil {
			n.enc.unread = n.filterOnly(n.enc.cols)
		}
	}
	return n.enc
}

// filterOnly lists the columns of cols that the scan's query block reads
// only in the conjuncts pushed into the scan (by name, as prune decides
// what a scan decodes: a name read anywhere else keeps its column).
func (n *scanNode) filterOnly(cols []int) []int {
	if n.sel == nil || n.need == nil {
		return nil
	}
	outside := map[string]bool{}
	q := *n.sel
	q.Where = nil
	refNames(&q, outside)
	for _, c := range conjuncts(n.sel.Where, nil) {
		if slices.Contains(n.where, c) {
			continue
		}
		if hasSubquery(c) {
			return nil
		}
		expr.Walk(c, func(e expr.Expr) {
			if ref, ok := e.(*expr.ColumnRef); ok {
				outside[strings.ToLower(ref.Name)] = true
				if ref.Table != "" {
					outside[strings.ToLower(ref.Table)] = true
				}
			}
		})
	}
	if outside["*"] {
		return nil
	}
	var out []int
	for _, c := range cols {
		if !outside[strings.ToLower(n.t.Columns[c].Name)] {
			out = append(out, c)
		}
	}
	return out
}

// planEncoded splits filter (see encPlan).
func planEncoded(rc *catalog.RowCodec, filter expr.Compiled) *encPlan {
	if filter == nil || !encFilterOn {
		return nil
	}
	p := &encPlan{}
	slot := func(col int) int {
		if i := slices.Index(p.cols, col); i >= 0 {
			return i
		}
		p.cols = append(p.cols, col)
		return len(p.cols) - 1
	}
	for _, c := range conjunctsOf(filter, nil) {
		ic, ok := expr.AsIntCompare(c)
		if ok {
			cols := []int{ic.Col}
			if ic.Col2 >= 0 && ic.Col2 != ic.Col {
				cols = append(cols, ic.Col2)
			}
			_, ok = rc.NewIntReader(cols)
		}
		if !ok {
			p.rest = andCompiled(p.rest, c)
			continue
		}
		chk := encCheck{a: slot(ic.Col), b: -1, lo: math.MinInt64, hi: math.MaxInt64, op: ic.Op}
		if ic.Col2 >= 0 {
			chk.b = slot(ic.Col2)
			p.checks = append(p.checks, chk)
			continue
		}
		k := ic.K
		switch ic.Op {
		case "=":
			chk.lo, chk.hi = k, k
		case "!=":
			chk.lo, chk.ne = k, true
		case "<":
			if k == math.MinInt64 {
				chk.lo, chk.hi = 1, 0 // nothing is less
			} else {
				chk.hi = k - 1
			}
		case "<=":
			chk.hi = k
		case ">":
			if k == math.MaxInt64 {
				chk.lo, chk.hi = 1, 0
			} else {
				chk.lo = k + 1
			}
		case ">=":
			chk.lo = k
		}
		p.checks = append(p.checks, chk)
	}
	if len(p.checks) == 0 {
		return nil
	}
	return p
}

// conjunctsOf appends the conjuncts of c to dst: the operands of the
// planner's AND (andNode) and of a bound AND (expr.Conjuncts).
func conjunctsOf(c expr.Compiled, dst []expr.Compiled) []expr.Compiled {
	if a, ok := c.(*andNode); ok {
		return conjunctsOf(a.b, conjunctsOf(a.a, dst))
	}
	for _, e := range expr.Conjuncts(c) {
		if _, ok := e.(*andNode); ok {
			dst = conjunctsOf(e, dst)
		} else {
			dst = append(dst, e)
		}
	}
	return dst
}

// encFilter evaluates an encPlan's checks on stored values; one per
// scanner (it holds the reader's state).
type encFilter struct {
	r      *catalog.IntReader
	checks []encCheck
	table  string
}

// newEncFilter prepares p's checks for a scanner of rc's table, nil when
// the reader cannot be built (it always can for a plan of this codec).
func newEncFilter(rc *catalog.RowCodec, p *encPlan) *encFilter {
	r, ok := rc.NewIntReader(p.cols)
	if !ok {
		return nil
	}
	encScans.Add(1)
	return &encFilter{r: r, checks: p.checks, table: rc.Table().Name}
}

// keep reports whether the row stored as key, val passes every check: a NULL
// operand fails it, as a comparison with NULL is never TRUE.
func (f *encFilter) keep(key, val []byte) (bool, error) {
	if err := f.r.Read(key, val); err != nil {
		return false, fmt.Errorf("cannot decode row of %s: %w", f.table, err)
	}
	for i := range f.checks {
		c := &f.checks[i]
		a, null := f.r.Val(c.a)
		if null {
			return false, nil
		}
		if c.b < 0 {
			if c.ne {
				if a == c.lo {
					return false, nil
				}
			} else if a < c.lo || a > c.hi {
				return false, nil
			}
			continue
		}
		b, null := f.r.Val(c.b)
		if null || !intHolds(c.op, a, b) {
			return false, nil
		}
	}
	return true, nil
}

// intHolds applies a comparison operator to a and b.
func intHolds(op string, a, b int64) bool {
	switch op {
	case "=":
		return a == b
	case "!=":
		return a != b
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	}
	return a >= b
}
