package engine

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/storage"
	"loadgw/types"
)

// scanNode reads the visible rows of a table: the key prefix narrows the
// scan, need limits decoding to the columns the query reads, and filter
// (the WHERE conjuncts pushed down) drops rows before they leave the scan.
type scanNode struct {
	t       *catalog.Table
	columns []expr.Column
	need    []bool
	prefix  []byte
	span    *keySpan // when set, the key range read (narrower than prefix)
	filter  expr.Compiled
	texts   []string // pushed conjuncts, for EXPLAIN
	// where is the conjunction of the pushed conjuncts before binding; the
	// key prefix is derived from it when the plan is finished.
	where []expr.Expr
	alias string
	// rows is the planner's estimate of the table's rows (see
	// tableRowsEstimate), taken from rowsOf when first needed (0 until
	// then): it reads the store's size estimate, which a query of one
	// table never needs.
	rows   int64
	rowsOf func() int64
	// enc is the part of filter evaluated on the stored bytes, set with
	// encDone when first needed (see encodedPlan).
	enc     *encPlan
	encDone bool
	// sel is the query block that reads the scan (set by prune), to tell
	// the columns read only by the pushed conjuncts (see filterOnly).
	sel *sql.Select
	// lookup is the index lookup the pushed conjuncts allow, or nil
	// (index_lookup.go).
	lookup *indexLookup
	// sample estimates the share of the table's rows the pushed filter
	// keeps from a sample (plan_sample.go), nil when not sampled; sampled
	// holds its answer.
	sample  func(n *scanNode) (float64, bool)
	sampled sampleSel
	// implied counts the conjuncts of where an OR implies
	// (plan_orimplied.go): estimate does not count them.
	implied int
	// filesRows is the table's rows counted in its table files, once
	// known (index_rows.go).
	filesRows atomic.Int64
}

func (n *scanNode) cols() []expr.Column { return n.columns }

// estimate guesses the rows the scan yields: a key prefix keeps 1%, each
// other condition a quarter.
func (n *scanNode) estimate() int64 {
	if n.rows == 0 && n.rowsOf != nil {
		n.rows = n.rowsOf()
	}
	if est, ok := n.sampledEstimate(); ok {
		return est
	}
	est := n.rows
	if n.prefix != nil {
		est /= 100
	}
	for range len(n.where) - n.implied {
		est /= 4
	}
	return max(est, 1)
}

func (n *scanNode) run(x *execCtx, fn rowFn) error {
	kf := x.keyFilters[n]
	if n.pipelined(x, kf) {
		if ran, err := n.runSplit(x, kf, fn); ran { // scan_split.go
			return err
		}
		return n.runPipelined(x, kf, fn)
	}
	lo, hi := n.bounds(x)
	return n.scanRows(x, x.poll, kf, lo, hi, fn)
}

// bounds is the key range the scan reads.
func (n *scanNode) bounds(x *execCtx) (lo, hi []byte) {
	if n.span != nil {
		return n.span.lo, n.span.hi
	}
	prefix := n.prefix
	if prefix == nil {
		prefix = x.s.e.Codec(n.t).Prefix()
	}
	return prefix, storage.PrefixEnd(prefix)
}

// scanRows reads the scan's rows in the key range [lo, hi) (bounds, or a
// part of it) into fn on the calling goroutine: x.ctx evaluates the pushed
// filter and kf (the probe key filter installed on the scan, or nil),
// poll stops the scan.
func (n *scanNode) scanRows(x *execCtx, poll func() error, kf *keyFilter, lo, hi []byte, fn rowFn) error {
	if done, err := n.scanExists(x, poll, kf, lo, hi, fn); done { // index_exists.go
		return err
	}
	var keys [][]byte
	var groups *lookupGroups
	if x.lookup != nil && x.lookup.n == n {
		keys, groups = x.lookup.keys, x.lookup.groups
	} else {
		var err error
		if keys, groups, err = n.lookupKeys(x, x.st.reader(), kf, lo, hi); err != nil { // index_lookup.go
			return err
		}
	}
	return n.scanRowsKeys(x, poll, kf, keys, groups, lo, hi, fn)
}

// scanRowsKeys is scanRows reading the rows of keys (sorted row keys an
// index names; groups, when set, groups them by the value looked up,
// index_lookup_once.go), or the whole range when keys is nil.
func (n *scanNode) scanRowsKeys(x *execCtx, poll func() error, kf *keyFilter, keys [][]byte, groups *lookupGroups, lo, hi []byte, fn rowFn) error {
	sc := x.s.newScanner(n.t, x.st.reader(), x.ctx.Now)
	sc.poll = poll
	sc.keys, sc.groups = keys, groups
	if x.s.readsDeleted() {
		sc.keepDeleted()
	}
	if n.need != nil {
		sc.project(slices.Clone(n.need))
	}
	filter := n.filter
	if p := n.encodedPlan(sc.rc); p != nil && !sc.bySequence() {
		if f := newEncFilter(sc.rc, p); f != nil {
			sc.enc, filter = f, p.rest
			if filter == nil && kf == nil && len(p.unread) > 0 && n.need != nil {
				// The columns only the conjuncts read are not decoded.
				need := slices.Clone(n.need)
				for _, c := range p.unread {
					need[c] = false
				}
				sc.project(need)
			}
		}
	}
	if kf != nil {
		return n.scanFiltered(x, sc, kf, filter, lo, hi, fn)
	}
	if filter == nil {
		return sc.scanIn(lo, hi, fn)
	}
	if fneed, ok := n.filterCols(); ok && sc.filterFirst(fneed, n.need, func(row []types.Value) (bool, error) {
		return x.truth(filter, row)
	}) {
		return sc.scanIn(lo, hi, fn)
	}
	return sc.scanIn(lo, hi, func(row []types.Value) (bool, error) {
		ok, err := x.truth(filter, row)
		if err != nil || !ok {
			return err == nil, err
		}
		return fn(row)
	})
}

func (n *scanNode) explain(verbose bool) (string, []relNode) {
	s := "SCAN " + n.t.Name
	if n.alias != "" && !strings.EqualFold(n.alias, n.t.Name) {
		s += " AS " + n.alias
	}
	if n.span != nil {
		s += " (key range)"
	} else if n.prefix != nil {
		s += " (key prefix)"
	}
	if len(n.texts) > 0 {
		s += " WHERE " + strings.Join(n.texts, " AND ")
	}
	if verbose && n.need != nil {
		var read []string
		for i, c := range n.t.Columns {
			if n.need[i] {
				read = append(read, c.Name)
			}
		}
		s += fmt.Sprintf(" columns=[%s]", strings.Join(read, ", "))
	}
	if verbose {
		s += n.explainAfter()
	}
	if verbose && n.lookup != nil {
		s += " index lookup " + n.lookup.ic.Name + " on " + n.t.Columns[n.lookup.ic.Col].Name
	}
	return s, nil
}

// feedNode streams rows a reader produces: the change records of binlog()
// and @incr, or a table as of a version. The reader runs against the
// statement's snapshot.
type feedNode struct {
	columns []expr.Column
	// t and project, when set, let the planner limit decoding to the
	// table columns the query reads (see source.prune).
	t       *catalog.Table
	project func(need []bool)
	read    func(fn func(row []types.Value) (bool, error)) error
	filter  expr.Compiled
	texts   []string
	label   string
}

func (n *feedNode) cols() []expr.Column { return n.columns }
func (n *feedNode) estimate() int64 {
	// A window of changes is taken to be large: a join builds its other
	// side (a dimension table) rather than the changes.
	est := int64(1_000_000)
	for range n.texts {
		est /= 4
	}
	return est
}
func (n *feedNode) run(x *execCtx, fn rowFn) error {
	return n.read(func(row []types.Value) (bool, error) {
		if err := x.poll(); err != nil {
			return false, err
		}
		if n.filter == nil {
			return fn(row)
		}
		ok, err := x.truth(n.filter, row)
		if err != nil || !ok {
			return err == nil, err
		}
		return fn(row)
	})
}
func (n *feedNode) explain(bool) (string, []relNode) {
	s := n.label
	if len(n.texts) > 0 {
		s += " WHERE " + strings.Join(n.texts, " AND ")
	}
	return s, nil
}

// rowKey appends the order-preserving encoding of vals (NULL included) to
// key; equal keys mean equal rows.
func rowKey(key []byte, vals []types.Value) []byte {
	for _, v := range vals {
		key = storage.AppendKey(key, v, types.TypeOf(v))
	}
	return key
}
