package expr

import (
	"fmt"

	"loadgw/types"
)

// MergeGroup folds group sg of src into group g of dst, two state columns
// of the same aggregate call, as if the rows src aggregated had been added
// to g after the rows g holds: the partial aggregations of two key ranges
// of one scan, merged in the ranges' order, give the serial scan's result.
// REQUIRES: the call is OrderFree (COUNT, an exact SUM or AVG, MIN or MAX
// of a non-floating type), whose states merge exactly: integer and DECIMAL
// sums wrap modulo 2^64 or 2^128 as their serial sums do, and a MIN or MAX
// keeps dst's value on a tie, the one a serial scan saw first.
func MergeGroup(dst AggColumn, g int32, src AggColumn, sg int32) {
	switch d := dst.(type) {
	case *countColumn:
		d.n[g] += src.(*countColumn).n[sg]
	case *sumColumn:
		d.merge(g, src.(*sumColumn), sg)
	case *avgColumn:
		s := src.(*avgColumn)
		d.n[g] += s.n[sg]
		d.sum.merge(g, &s.sum, sg)
	case *extremeColumn:
		s := &src.(*extremeColumn).states[sg]
		if !s.has {
			return
		}
		t := &d.states[g]
		if !t.has || d.a.cmp(s.v, t.v)*d.a.sign > 0 {
			*t = *s
		}
	default:
		panic(fmt.Sprintf("BUG: MergeGroup of a %T", dst))
	}
}

func (c *sumColumn) merge(g int32, src *sumColumn, sg int32) {
	if !src.has[sg] {
		return
	}
	c.has[g] = true
	switch c.a.t.Kind {
	case types.BigInt:
		c.i[g] += src.i[sg] // wraps as the serial sum does
	case types.Decimal, types.LargeInt:
		c.d[g], _ = c.d[g].Add(src.d[sg]) // wraps
	default:
		panic(fmt.Sprintf("BUG: MergeGroup of a SUM of %s", c.a.t.Kind))
	}
}
