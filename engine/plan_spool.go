package engine

import (
	"strings"

	"loadgw/expr"
	"loadgw/sql"
)

// A grouped subquery read from the rows of the block it is joined to.
// TPC-H Q17 compares each lineitem row of the chosen parts with 0.2 *
// avg(l_quantity) of its part: scalarJoin makes the subquery a derived
// table grouped by l_partkey and LEFT OUTER JOINed to the block, and the
// key reduction cuts it to the chosen parts with a LEFT SEMI JOIN of
// lineitem with part. The block's own source is the INNER JOIN of
// lineitem with the same part scan by the same keys, so the two read
// lineitem (the largest table) twice for the same rows. Here the block's
// join is read once into memory (a spool) and the subquery's aggregation
// reads the lineitem columns of those rows instead of its own semi join.
//
// The rows are the same but for multiplicity: the inner join repeats a
// lineitem row once for each part row of its key, where the semi join
// keeps it once. Every row of one l_partkey repeats the same number of
// times, so an aggregation grouped by that key whose functions ignore
// how often each value occurs (avg, min, max) computes the same values
// from either. Both scans must read the same rows (same table, key range
// and filter, by their text) and both joins must join by the same
// columns with no other condition.
//
// Past the memory bound the spool gives up: the block's join streams as
// before and the subquery runs its own semi join.

// spoolSubqueries rewrites the LEFT OUTER JOINs of n with grouped
// subqueries that fit (see above); it descends through the joins and
// filters of a block's source.
func spoolSubqueries(n relNode) relNode {
	switch x := n.(type) {
	case *joinNode:
		x.left = spoolSubqueries(x.left)
		x.right = spoolSubqueries(x.right)
		if s := spoolSubquery(x); s != nil {
			return s
		}
	case *filterNode:
		x.child = spoolSubqueries(x.child)
	}
	return n
}

// spoolSubquery returns j reading its subquery from its left side's rows,
// or nil when it does not fit.
func spoolSubquery(j *joinNode) relNode {
	if j.kind != sql.LeftOuterJoin {
		return nil
	}
	an, semi := groupedSemi(j.right)
	if an == nil {
		return nil
	}
	t2, x2 := semi.left.(*scanNode), semi.right.(*scanNode)
	inner, ok := j.left.(*joinNode)
	if !ok || inner.kind != sql.InnerJoin || inner.cond != nil || len(inner.lkeys) != 1 || len(inner.rkeys) != 1 {
		return nil
	}
	t1, off, ts, ok := sameJoin(inner, semi, t2, x2)
	if !ok || !groupsByAndIgnoresRepeats(an.ap, ts) {
		return nil
	}
	// The block's scan decodes what the subquery's read.
	t1.need = unionNeed(t1.need, t2.need)
	sp := &spoolNode{child: inner}
	j.left = sp
	an.child = &spoolReadNode{spool: sp, off: off, columns: semi.columns, orig: semi, table: t2.t.Name}
	return &spoolJoinNode{joinNode: j, spool: sp}
}

// groupedSemi returns the aggregation of a subquery (a SUBQUERY rename
// of a projection of it) and the semi join of two scans it reads, or nils.
func groupedSemi(n relNode) (*aggNode, *joinNode) {
	rn, ok := n.(*renameNode)
	if !ok || !strings.HasPrefix(rn.label, "SUBQUERY") {
		return nil, nil
	}
	pn, ok := rn.child.(*projectNode)
	if !ok {
		return nil, nil
	}
	an, ok := pn.child.(*aggNode)
	if !ok {
		return nil, nil
	}
	semi, ok := an.child.(*joinNode)
	if !ok || semi.kind != sql.LeftSemiJoin || semi.marks != nil || semi.cond != nil || len(semi.lkeys) != 1 {
		return nil, nil
	}
	_, ok1 := semi.left.(*scanNode)
	_, ok2 := semi.right.(*scanNode)
	if !ok1 || !ok2 {
		return nil, nil
	}
	return an, semi
}

// sameJoin reports whether inner joins the rows of t2 and x2 (in either
// order) by the key columns semi joins them: t1 is inner's scan like t2,
// off the place of its columns in inner's rows, ts its key slot.
func sameJoin(inner, semi *joinNode, t2, x2 *scanNode) (t1 *scanNode, off, ts int, ok bool) {
	tkey, xkey := inner.lkeys[0], inner.rkeys[0]
	t1, ok1 := inner.left.(*scanNode)
	x1, ok2 := inner.right.(*scanNode)
	if !ok1 || !ok2 || !sameScanRows(t1, t2) {
		t1, ok1 = inner.right.(*scanNode)
		x1, ok2 = inner.left.(*scanNode)
		tkey, xkey = inner.rkeys[0], inner.lkeys[0]
		off = len(inner.left.cols())
	}
	if !ok1 || !ok2 || !sameScanRows(t1, t2) || !sameScanRows(x1, x2) {
		return nil, 0, 0, false
	}
	ts, ok1 = expr.SlotIndex(tkey)
	xs, ok2 := expr.SlotIndex(xkey)
	st, ok3 := expr.SlotIndex(semi.lkeys[0])
	sx, ok4 := expr.SlotIndex(semi.rkeys[0])
	if !ok1 || !ok2 || !ok3 || !ok4 || ts != st || xs != sx || inner.keyTypes[0] != semi.keyTypes[0] {
		return nil, 0, 0, false
	}
	return t1, off, ts, true
}

// sameScanRows reports whether a and b read the same rows of one table:
// they are one scan (the key reduction joins the subquery with the
// block's own scan of the keys), or they have the same key range and the
// same filter conjuncts, by their text.
func sameScanRows(a, b *scanNode) bool {
	return a == b || sameScanRange(a, b) && subsetTexts(a.texts, b.texts) && subsetTexts(b.texts, a.texts)
}

// groupsByAndIgnoresRepeats reports whether ap groups by column slot
// (among others) and computes only functions that a row repeated a few
// more times does not change: avg, min and max.
func groupsByAndIgnoresRepeats(ap *aggPlan, slot int) bool {
	if ap.sets != nil || len(ap.aggs) == 0 {
		return false
	}
	grouped := false
	for _, g := range ap.groups {
		if s, ok := expr.SlotIndex(g); ok && s == slot {
			grouped = true
		}
	}
	if !grouped {
		return false
	}
	for _, a := range ap.aggs {
		k := strings.ToLower(a.key)
		if a.fn == nil || !(strings.HasPrefix(k, "avg(") || strings.HasPrefix(k, "min(") || strings.HasPrefix(k, "max(")) {
			return false
		}
	}
	return true
}
