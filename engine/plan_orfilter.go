package engine

import (
	"slices"

	"loadgw/expr"
)

// deriveOrFilters adds, for each OR over several relations, the filter it
// implies on one relation when every branch constrains that relation, as
// Nereids' ExtractSingleTableExpressionFromDisjunction does:
// (n1.n_name = 'FRANCE' AND n2.n_name = 'GERMANY') OR (n1.n_name =
// 'GERMANY' AND n2.n_name = 'FRANCE') implies n1.n_name = 'FRANCE' OR
// n1.n_name = 'GERMANY', which filters n1's scan. The OR itself stays.
func (jo *joinOrder) deriveOrFilters(conds []expr.Expr) []expr.Expr {
	out := conds
	for _, c := range conds {
		b, ok := c.(*expr.Binary)
		if !ok || b.Op != "OR" || hasSubquery(c) {
			continue
		}
		rs := jo.refs(c)
		if len(rs) < 2 {
			continue
		}
		branches := disjuncts(c, nil)
		for _, r := range rs {
			var derived expr.Expr
			for _, br := range branches {
				var own []expr.Expr
				for _, x := range conjuncts(br, nil) {
					if xr := jo.refs(x); len(xr) == 1 && xr[0] == r && !hasSubquery(x) {
						own = append(own, x)
					}
				}
				if len(own) == 0 {
					derived = nil
					break
				}
				if part := andAll(own); derived == nil {
					derived = part
				} else {
					derived = &expr.Binary{P: derived.Pos(), Op: "OR", L: derived, R: part}
				}
			}
			if derived != nil && !slices.ContainsFunc(out, func(e expr.Expr) bool { return expr.String(e) == expr.String(derived) }) {
				out = append(out, derived)
			}
		}
	}
	return out
}
