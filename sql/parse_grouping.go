package sql

import (
	"strings"

	"loadgw/expr"
)

// GroupingKind says which form a GROUP BY clause has.
type GroupingKind uint8

// The GROUP BY forms of Doris's groupingElement.
const (
	GroupPlain        GroupingKind = iota // GROUP BY a, b
	GroupWithRollup                       // GROUP BY a, b WITH ROLLUP
	GroupRollup                           // GROUP BY ROLLUP(a, b)
	GroupCube                             // GROUP BY CUBE(a, b)
	GroupGroupingSets                     // GROUP BY GROUPING SETS((a, b), (a), ())
)

// groupBy parses the part of GROUP BY after the keywords into s.
func (p *parser) groupBy(s *Select) {
	switch {
	case p.isKw("ROLLUP") && p.isOpN(1, "("):
		p.next()
		s.Grouping, s.GroupBy = GroupRollup, p.parenExprs()
	case p.isKw("CUBE") && p.isOpN(1, "("):
		p.next()
		s.Grouping, s.GroupBy = GroupCube, p.parenExprs()
	case p.acceptKws("GROUPING", "SETS"):
		s.Grouping = GroupGroupingSets
		p.expectOp("(")
		for {
			set := p.parenExprs()
			s.GroupingSets = append(s.GroupingSets, set)
			s.GroupBy = appendDistinct(s.GroupBy, set)
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
	default:
		s.GroupBy = p.exprList()
		if p.acceptKws("WITH", "ROLLUP") {
			s.Grouping = GroupWithRollup
		}
	}
}

// parenExprs parses ( [expr, ...] ).
func (p *parser) parenExprs() []expr.Expr {
	p.expectOp("(")
	if p.acceptOp(")") {
		return []expr.Expr{}
	}
	list := p.exprList()
	p.expectOp(")")
	return list
}

func appendDistinct(list, add []expr.Expr) []expr.Expr {
	for _, e := range add {
		dup := false
		for _, x := range list {
			if strings.EqualFold(expr.String(x), expr.String(e)) {
				dup = true
				break
			}
		}
		if !dup {
			list = append(list, e)
		}
	}
	if list == nil {
		list = []expr.Expr{}
	}
	return list
}

// Sets returns the grouping sets of a GROUP BY of any form other than
// GroupPlain, each a list of indexes into s.GroupBy, in Doris's order
// (ExpressionUtils.rollupToGroupingSets / cubeToGroupingSets). It fails
// when there would be more than max sets.
func (s *Select) Sets(max int) ([][]int, bool) {
	n := len(s.GroupBy)
	var out [][]int
	switch s.Grouping {
	case GroupRollup, GroupWithRollup:
		for end := n; end >= 0; end-- {
			out = append(out, seq(end))
		}
	case GroupCube:
		if n >= 31 || 1<<n > max {
			return nil, false
		}
		for mask := 0; mask < 1<<n; mask++ {
			// Doris recurses "use, then skip" over the expressions, so the
			// first set uses all of them: bit i of ^mask picks expression i,
			// most significant first.
			var set []int
			for i := 0; i < n; i++ {
				if mask&(1<<(n-1-i)) == 0 {
					set = append(set, i)
				}
			}
			out = append(out, set)
		}
	case GroupGroupingSets:
		for _, gs := range s.GroupingSets {
			var set []int
			for _, e := range gs {
				for i, g := range s.GroupBy {
					if strings.EqualFold(expr.String(g), expr.String(e)) {
						set = append(set, i)
						break
					}
				}
			}
			out = append(out, set)
		}
	}
	if len(out) > max {
		return nil, false
	}
	return out, true
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
