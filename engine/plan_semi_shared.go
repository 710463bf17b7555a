package engine

import (
	"slices"

	"loadgw/catalog"

	"loadgw/expr"
	"loadgw/sql"
)

// Semi and anti joins that share one scan. TPC-H Q21 asks, of each late
// lineitem row l1, EXISTS (a row l2 of the same order from another
// supplier) AND NOT EXISTS (a late row l3 of the same order from another
// supplier): decorrelate makes that a LEFT ANTI JOIN with lineitem over a
// LEFT SEMI JOIN with lineitem, two more passes over the largest table,
// each probing the same kept rows by the same key. Both joins keep the
// rows of their left side (their output is their left input's rows,
// some of them) and both are hash joins that build that side, so one
// pass can decide both: the kept rows are built once, one scan of the
// table streams past them, and each of its rows marks the kept rows it
// matches for each join whose own filter and residual condition it
// passes. A kept row is output when every semi join marked it and no anti
// join did: the rows the anti join's left input (the semi join's output)
// holds, less those the anti join matches, exactly as the two joins run
// one over the other.
//
// The scan read is the one of the two whose filter is a part of the
// other's (the same conjuncts or fewer, by their text); the other join's
// filter is evaluated on each row streamed, before its condition.
// Both scans are of the same table over the same key range, so their rows
// have one layout and each join's key and condition read the scanned row
// unchanged.

// markArm is one semi or anti join of a shared scan (see above).
type markArm struct {
	anti bool
	// cond is the join's residual condition over kept row ++ scanned row,
	// nil when the key decides.
	cond expr.Compiled
	// filter is the join's own filter of the scanned row where the scan's
	// filter does not imply it, else nil.
	filter expr.Compiled
	texts  []string // the join's ON texts, for EXPLAIN
	alias  string   // the alias of the join's own scan, for EXPLAIN
	where  []string // the join's own filter texts, for EXPLAIN
}

// shareSemiScans rewrites n's semi and anti joins over one scan each into
// shared scans where they fit (see above); it descends through the joins
// and filters of a block's source.
func shareSemiScans(n relNode) relNode {
	switch x := n.(type) {
	case *joinNode:
		x.left = shareSemiScans(x.left)
		x.right = shareSemiScans(x.right)
		if m := shareSemiPair(x); m != nil {
			return m
		}
	case *filterNode:
		x.child = shareSemiScans(x.child)
	}
	return n
}

// shareSemiPair returns the one join that does what outer over its left
// input does when both are semi or anti joins of their left side with
// scans of one table by the same keys, and the inner one builds its kept
// side (the planner estimates it smaller than the scan), or nil. The
// outer join's own choice of side does not matter: its left input is the
// inner one's kept rows, fewer still.
func shareSemiPair(outer *joinNode) *joinNode {
	inner, ok := outer.left.(*joinNode)
	if !ok || !leftSemiOrAnti(outer) || !leftSemiOrAnti(inner) || inner.buildSide() != "left" {
		return nil
	}
	s1, ok1 := inner.right.(*scanNode)
	s2, ok2 := outer.right.(*scanNode)
	if !ok1 || !ok2 || !sameScanRange(s1, s2) || !sameSlots(inner, outer) {
		return nil
	}
	width := len(inner.left.cols())
	if len(inner.columns) != width || len(outer.columns) != width {
		return nil
	}
	arms := inner.marks
	if arms == nil {
		arms = []markArm{armOf(inner, s1)}
	} else {
		arms = slices.Clone(arms)
	}
	arm := armOf(outer, s2)
	scanned := s1
	switch {
	case subsetTexts(s1.texts, s2.texts):
		if len(s2.texts) > len(s1.texts) || !subsetTexts(s2.texts, s1.texts) {
			arm.filter = s2.filter
		}
	case subsetTexts(s2.texts, s1.texts):
		// The outer join's scan filters less: it is the one read, and the
		// arms that relied on s1's filter evaluate it themselves.
		scanned = s2
		for i := range arms {
			if arms[i].filter == nil {
				arms[i].filter = s1.filter
			}
		}
	default:
		return nil
	}
	scanned.need = unionNeed(s1.need, s2.need)
	m := *inner
	m.right = scanned
	m.kind = sql.LeftSemiJoin
	m.cond = nil
	m.marks = append(arms, arm)
	m.columns = outer.columns
	m.est = outer.est
	m.texts = nil
	return &m
}

// leftSemiOrAnti reports whether j is a LEFT SEMI or LEFT ANTI hash join
// (or a shared scan).
func leftSemiOrAnti(j *joinNode) bool {
	return (j.kind == sql.LeftSemiJoin || j.kind == sql.LeftAntiJoin) && len(j.lkeys) > 0
}

// armOf is the mark of join j, whose right side is scan s.
func armOf(j *joinNode, s *scanNode) markArm {
	if j.marks != nil {
		panic("BUG: a shared scan's join taken as one arm")
	}
	alias := s.alias
	if alias == "" {
		alias = s.t.Name
	}
	return markArm{anti: j.kind == sql.LeftAntiJoin, cond: j.cond, texts: j.texts, alias: alias, where: s.texts}
}

// sameScanRange reports whether a and b read the same rows of the same
// table before their filters, in one layout.
func sameScanRange(a, b *scanNode) bool {
	if a == b || !sameTable(a.t, b.t) || len(a.columns) != len(b.columns) || string(a.prefix) != string(b.prefix) {
		return false
	}
	if (a.prefix == nil) != (b.prefix == nil) {
		return false
	}
	switch {
	case a.span == nil && b.span == nil:
		return true
	case a.span == nil || b.span == nil:
		return false
	}
	return string(a.span.lo) == string(b.span.lo) && string(a.span.hi) == string(b.span.hi)
}

// sameSlots reports whether a and b join by the same columns: each key of
// both is a column, at the same places on both sides, of the same type.
func sameSlots(a, b *joinNode) bool {
	if len(a.lkeys) != len(b.lkeys) || len(a.rkeys) != len(b.rkeys) || len(a.lkeys) != len(a.rkeys) {
		return false
	}
	same := func(x, y expr.Compiled) bool {
		i, ok1 := expr.SlotIndex(x)
		j, ok2 := expr.SlotIndex(y)
		return ok1 && ok2 && i == j && x.Type() == y.Type()
	}
	for i := range a.lkeys {
		if !same(a.lkeys[i], b.lkeys[i]) || !same(a.rkeys[i], b.rkeys[i]) || a.keyTypes[i] != b.keyTypes[i] {
			return false
		}
	}
	return true
}

// subsetTexts reports whether every conjunct of a is one of b's.
func subsetTexts(a, b []string) bool {
	for _, s := range a {
		if !slices.Contains(b, s) {
			return false
		}
	}
	return true
}

// unionNeed is the columns either scan decodes (nil: all).
func unionNeed(a, b []bool) []bool {
	if a == nil || b == nil {
		return nil
	}
	out := make([]bool, len(a))
	for i := range a {
		out[i] = a[i] || b[i]
	}
	return out
}

// sameTable reports whether a and b are one table of the statement's
// catalog (each reference to a table may look it up anew).
func sameTable(a, b *catalog.Table) bool {
	return a == b || a.ID == b.ID && a.DB == b.DB && a.Name == b.Name && a.SchemaVersion == b.SchemaVersion
}
