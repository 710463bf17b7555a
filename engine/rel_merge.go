package engine

import (
	"errors"

	"loadgw/expr"
	"loadgw/spill"
	"loadgw/sql"
	"loadgw/types"
)

// mergeable reports whether j runs as a merge join: an inner join on one
// integer key that is, on both sides, the leading key column of a table
// scan, whose rows arrive ordered by it (the store keeps a table's rows in
// key order). The side a hash join would build is kept in memory as it
// arrives, already ordered; the other streams past it with a cursor that
// only moves forward: no hash table is built or probed.
func (n *joinNode) mergeable() bool {
	if n.kind != sql.InnerJoin || len(n.lkeys) != 1 || !mergeKeyType(n.keyTypes[0]) {
		return false
	}
	return leadingKeySlot(n.left, n.lkeys[0]) && leadingKeySlot(n.right, n.rkeys[0])
}

func mergeKeyType(t types.Type) bool {
	return types.IsInteger(t.Kind) && t.Kind != types.LargeInt
}

// leadingKeySlot reports whether key reads the first key column of the
// table scan under n.
func leadingKeySlot(n relNode, key expr.Compiled) bool {
	idx, ok := expr.SlotIndex(key)
	if !ok || idx != 0 || !mergeKeyType(key.Type()) {
		return false
	}
	sc := scanUnder(n)
	return sc != nil && len(sc.t.Columns) > 0 && sc.t.Columns[0].IsKey
}

// runMerge joins the rows of build (kept) and probe (streamed), both
// ordered by their key. Rows whose key is NULL match nothing.
func (n *joinNode) runMerge(x *execCtx, fn rowFn, buildLeft bool, build, probe relNode, bkey, pkey expr.Compiled) error {
	rows, err := collectBounded(x, build, x.s.queryMemory())
	if err == errMergeTooBig {
		// Past the memory bound the kept side is read again by the hash
		// join, which spills; the streamed side has not been read yet.
		return n.runHash(x, fn, buildLeft, build, probe, []expr.Compiled{bkey}, []expr.Compiled{pkey})
	}
	if err != nil || len(rows) == 0 {
		return err
	}
	if mergeSeeks(probe, pkey, len(rows)) {
		// few kept rows: the streamed table is read by their keys (see
		// join_keyseek.go), in key order as the merge would read it
		_, err := n.joinRows(x, fn, rows, buildLeft, []expr.Compiled{bkey}, []expr.Compiled{pkey},
			func(f rowFn) error { return probe.run(x, f) }, probe, nil)
		return err
	}
	keys := make([]int64, len(rows))
	nulls := make([]bool, len(rows))
	for i, r := range rows {
		v, err := bkey.Eval(r, x.ctx)
		if err != nil {
			return err
		}
		nulls[i], keys[i] = v.IsNull(), v.I
		if i > 0 && !nulls[i] && !nulls[i-1] && keys[i] < keys[i-1] || i > 0 && nulls[i] && !nulls[i-1] {
			panic("BUG: merge join input not ordered by its key")
		}
	}
	lw, rw := len(n.left.cols()), len(n.right.cols())
	j := &joinRun{n: n, x: x, fn: fn, row: make([]types.Value, lw+rw), lw: lw, buildLeft: buildLeft}
	pos, prev, started := 0, int64(0), false
	return probe.run(x, func(prow []types.Value) (bool, error) {
		if err := x.poll(); err != nil {
			return false, err
		}
		v, err := pkey.Eval(prow, x.ctx)
		if err != nil || v.IsNull() {
			return err == nil, err
		}
		k := v.I
		if started && k < prev {
			panic("BUG: merge join input not ordered by its key")
		}
		prev, started = k, true
		for pos < len(rows) && (nulls[pos] || keys[pos] < k) {
			pos++
		}
		for i := pos; i < len(rows) && keys[i] == k; i++ {
			j.pair(prow, rows[i])
			if n.cond != nil {
				ok, err := x.truth(n.cond, j.row)
				if err != nil {
					return false, err
				}
				if !ok {
					continue
				}
			}
			if more, err := fn(j.row); err != nil || !more {
				return more, err
			}
		}
		return pos < len(rows), nil // past the last kept row nothing can match
	})
}

var errMergeTooBig = errors.New("merge join side past the memory bound")

// collectBounded is collect that gives up with errMergeTooBig past budget
// bytes of rows (0: no bound).
func collectBounded(x *execCtx, n relNode, budget int64) ([][]types.Value, error) {
	var out [][]types.Value
	var slab []types.Value
	var mem int64
	err := n.run(x, func(row []types.Value) (bool, error) {
		if len(slab)+len(row) > cap(slab) {
			slab = make([]types.Value, 0, max(collectSlab, len(row)))
		}
		i := len(slab)
		slab = append(slab, row...)
		out = append(out, slab[i:len(slab):len(slab)])
		if mem += spill.RowBytes(row); budget > 0 && mem > budget {
			return false, errMergeTooBig
		}
		return true, nil
	})
	return out, err
}
