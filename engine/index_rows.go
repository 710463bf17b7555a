package engine

import "loadgw/storage"

// lookupTableRows is the table rows an index lookup's limit is a share of
// (index_lookup.go): the entries of the table's key range in the table
// files (storage.DB.EstimateKeys), taken once per scan. The planner's
// estimate (tableRowsEstimate) guesses rows from bytes on disk, and
// compression makes that guess differ by table: TPC-H SF1's lineitem
// (6.0M rows) is guessed at 2.2M, orders (1.5M) at 0.95M, partsupp (0.8M)
// at 0.88M, so a limit on the guess let lookups of a fifth of partsupp
// through and stopped those of a sixteenth of lineitem (Q21's EXISTS, Q7,
// Q9), which cost less than reading it. The planner's estimate when the
// files hold none of the table (its rows are still in the memtable).
func (n *scanNode) lookupTableRows(x *execCtx) int64 {
	if r := n.filesRows.Load(); r > 0 {
		return r
	}
	prefix := x.s.e.Codec(n.t).Prefix()
	keys, err := x.s.e.db.EstimateKeys(prefix, storage.PrefixEnd(prefix))
	r := int64(keys)
	if err != nil || r == 0 {
		r = n.rows // not n.estimate(): pipelined scans run this on workers
		if r == 0 && n.rowsOf != nil {
			r = n.rowsOf()
		}
		return r
	}
	n.filesRows.Store(r)
	return r
}
