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
//
// Counting reads the properties of every file of the table (a few ms for
// SF1's store), so the count is kept per table with the table's bytes on
// disk (DiskUsage, microseconds) and taken again only when those change.
func (n *scanNode) lookupTableRows(x *execCtx) int64 {
	if r := n.filesRows.Load(); r > 0 {
		return r
	}
	e := x.s.e
	prefix := e.Codec(n.t).Prefix()
	end := storage.PrefixEnd(prefix)
	r := int64(0)
	if size, err := e.db.DiskUsage(prefix, end); err == nil && size > 0 {
		if c, ok := e.filesRows.Load(n.t.ID); ok && c.(filesCount).size == size {
			r = c.(filesCount).rows
		} else if keys, err := e.db.EstimateKeys(prefix, end); err == nil && keys > 0 {
			r = int64(keys)
			e.filesRows.Store(n.t.ID, filesCount{size: size, rows: r})
		}
	}
	if r == 0 {
		r = n.rows // not n.estimate(): pipelined scans run this on workers
		if r == 0 && n.rowsOf != nil {
			r = n.rowsOf()
		}
		return r
	}
	n.filesRows.Store(r)
	return r
}

// filesCount is a table's rows counted in its table files when its files
// took size bytes.
type filesCount struct {
	size uint64
	rows int64
}
