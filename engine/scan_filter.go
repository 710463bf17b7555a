package engine

import (
	"fmt"
	"slices"
	"strings"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/types"
)

// Filter before decode. A scan with pushed conjuncts first decodes the key
// and the value columns the conjuncts read, evaluates them, and decodes the
// rest of the columns the query reads only for the rows that pass (TPC-H
// Q19 keeps 1 lineitem row in 50,000: the strings and DECIMALs of the rest
// are never built). The second decode steps over the values already read.

// filterCols marks the table columns the scan's pushed conjuncts read. ok
// is false when a name in them does not resolve to a column of the scan
// (an outer reference, or a form the walk does not know): the scan then
// decodes every column it reads before filtering, as it always did.
func (n *scanNode) filterCols() ([]bool, bool) {
	out := make([]bool, len(n.t.Columns))
	ok := true
	sc := &expr.Scope{Columns: n.columns}
	for _, w := range n.where {
		if hasSubquery(w) {
			return nil, false
		}
		expr.Walk(w, func(e expr.Expr) {
			ref, isRef := e.(*expr.ColumnRef)
			if !isRef {
				return
			}
			if c, i := lookupScope(sc, ref); c != nil && i < len(out) {
				out[i] = true
			} else {
				ok = false
			}
		})
	}
	return out, ok
}

// filterFirst sets the scanner up to decode the columns of fneed (with the
// delete sign and the TTL column, which decide visibility), run cond, and
// decode the other columns of need (nil: all) only for the rows cond
// keeps. It reports false, changing nothing, when nothing would be saved:
// the filter reads every column read, or the table is merge-on-read with a
// sequence column (every version is decoded whole to pick the row).
func (sc *scanner) filterFirst(fneed, need []bool, cond func([]types.Value) (bool, error)) bool {
	if rs := sc.rc.RowStoreCol(); rs >= 0 && (need == nil || need[rs]) {
		return false // the row store needs the whole row before it is built
	}
	if sc.delSign >= 0 {
		fneed[sc.delSign] = true
	}
	sc.expiry.Need(fneed)
	rest := afterFilter(sc.t, fneed, need)
	if rest == nil {
		return false
	}
	sc.proj = sc.rc.NewProjection(fneed)
	sc.rest = sc.rc.NewProjection(rest)
	sc.noVer = noVersion(sc.rc, need)
	sc.pre = cond
	// rest holds no key column: the key columns decoded are those of the
	// filter and of need.
	sc.keyN, sc.keyFor = sc.rc.KeyColumnsRead(fneed, need), sc.proj
	return true
}

// afterFilter is the set of columns of need (nil: all) decoded after the
// filter, nil when there are none: the value columns the filter (fneed)
// does not read. Keys and virtual columns come with every row.
func afterFilter(t *catalog.Table, fneed, need []bool) []bool {
	if seq, _ := t.Sequence(); seq >= 0 && !t.MergeOnWrite() {
		return nil // every version is decoded whole to pick the row
	}
	rest := make([]bool, len(fneed))
	any := false
	for i, c := range t.Columns {
		if c.IsKey || c.Virtual || fneed[i] || need != nil && !need[i] {
			continue
		}
		rest[i], any = true, true
	}
	if !any {
		return nil
	}
	return rest
}

// explainAfter is the EXPLAIN VERBOSE note of the columns a scan decodes
// after its filter, or "".
func (n *scanNode) explainAfter() string {
	if len(n.where) == 0 {
		return ""
	}
	fneed, ok := n.filterCols()
	if !ok {
		return ""
	}
	rest := afterFilter(n.t, fneed, n.need)
	var names []string
	for i, c := range n.t.Columns {
		if rest != nil && rest[i] {
			names = append(names, c.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " after filter=[" + strings.Join(names, ", ") + "]"
}

// filterKeysFirst is filterFirst with a stage in front: the columns of
// kneed (what the probe key filters read) are decoded and kcond run
// first, then the other columns of fneed (the pushed filter's) and cond,
// then the rest of need (nil: all). A row that no join can match costs
// only its key columns: TPC-H Q19's lineitem rows outside the chosen
// parts never decode l_shipinstruct, l_shipmode or l_quantity. It reports
// false, changing nothing, when there is no second stage to save.
func (sc *scanner) filterKeysFirst(kneed, fneed, need []bool, kcond, cond func([]types.Value) (bool, error)) bool {
	if rs := sc.rc.RowStoreCol(); rs >= 0 && (need == nil || need[rs]) {
		return false
	}
	if seq, _ := sc.t.Sequence(); seq >= 0 && !sc.t.MergeOnWrite() {
		return false // every version is decoded whole to pick the row
	}
	if sc.delSign >= 0 {
		kneed[sc.delSign] = true
	}
	sc.expiry.Need(kneed)
	mid := make([]bool, len(fneed))
	any := false
	for i, c := range sc.t.Columns {
		if fneed[i] && !kneed[i] && !c.IsKey && !c.Virtual {
			mid[i], any = true, true
		}
	}
	if !any {
		return false
	}
	both := slices.Clone(kneed)
	for i, f := range fneed {
		both[i] = both[i] || f
	}
	sc.proj = sc.rc.NewProjection(kneed)
	sc.mid = sc.rc.NewProjection(mid)
	if rest := afterFilter(sc.t, both, need); rest != nil {
		sc.rest = sc.rc.NewProjection(rest)
	}
	sc.noVer = noVersion(sc.rc, need)
	sc.pre, sc.preMid = kcond, cond
	sc.keyN, sc.keyFor = sc.rc.KeyColumnsRead(both, need), sc.proj
	return true
}

// midFilter decodes the second stage's columns (filterKeysFirst) and runs
// its condition.
func (sc *scanner) midFilter(val []byte, row []types.Value) (bool, error) {
	var err error
	sc.scratch, err = sc.rc.DecodeValueMask(val, row, sc.scratch, sc.fill, sc.mid)
	if err != nil {
		return false, fmt.Errorf("cannot decode row of %s: %w", sc.t.Name, err)
	}
	return sc.preMid(row)
}

// decodeRest fills the columns filterFirst left for after the filter.
func (sc *scanner) decodeRest(val []byte, row []types.Value) error {
	if sc.rest == nil {
		return nil // filterKeysFirst: the filters read every column
	}
	var err error
	sc.scratch, err = sc.rc.DecodeValueMask(val, row, sc.scratch, sc.fill, sc.rest)
	if err != nil {
		return fmt.Errorf("cannot decode row of %s: %w", sc.t.Name, err)
	}
	return nil
}
