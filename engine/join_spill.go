package engine

import (
	"hash/maphash"

	"loadgw/expr"
	"loadgw/spill"
	"loadgw/types"
)

const (
	// joinFanOut is the number of partitions a spilling hash join writes
	// of each side.
	joinFanOut = 16
	// joinMaxDepth bounds re-partitioning: a partition still too big at
	// this depth (one key of very many rows) is joined in memory.
	joinMaxDepth = 4
)

// hashJoinRun is one execution of a hash join that keeps its build side
// within the query memory bound: past it, both sides go to partition
// files by a hash of their key (a grace hash join) and each pair of
// partitions is joined on its own, re-partitioned when still too big.
// Rows of one key meet in one partition; a NULL key matches nothing and
// goes to the first, where the join kind decides its fate as in memory.
type hashJoinRun struct {
	n            *joinNode
	x            *execCtx
	fn           rowFn
	buildLeft    bool
	bkeys, pkeys []expr.Compiled
	budget       int64 // 0: never spill
	// limit bounds the kept side of a join that cannot spill (a nested
	// loop): past it the query fails with Doris's memory limit error.
	// 0: no bound.
	limit int64
	key   []byte
	// probeNode is the probe side's plan, which a probe key filter may
	// reach; nil when not known.
	probeNode relNode
	// narrow, when set, lists the build side's columns its rows hold
	// (see join_narrow.go); bw widens them to evaluate the keys.
	narrow []int
	bw     widener
}

// join joins the rows build and probe stream at re-partitioning depth.
func (h *hashJoinRun) join(build, probe func(rowFn) error, depth int) (bool, error) {
	var rows [][]types.Value
	var slab []types.Value
	var mem int64
	var bparts []*spill.Writer
	var keys *spillKeys // the build keys for the probe's runtime filters
	seed := maphash.MakeSeed()
	err := build(func(row []types.Value) (bool, error) {
		if bparts != nil {
			return true, h.partitionBuild(bparts, keys, seed, row)
		}
		if len(slab)+len(row) > cap(slab) {
			slab = make([]types.Value, 0, max(collectSlab, len(row)))
		}
		i := len(slab)
		slab = append(slab, row...)
		rows = append(rows, slab[i:len(slab):len(slab)])
		rb := spill.RowBytes(row)
		mem += rb
		if h.limit > 0 && mem > h.limit {
			return false, newMemLimitError(rb, mem-rb, h.limit, nestedLoopNode)
		}
		if h.budget > 0 && mem > h.budget && depth < joinMaxDepth {
			parts, err := h.createParts()
			if err != nil {
				return false, err
			}
			bparts = parts
			if depth == 0 {
				keys = h.newSpillKeys()
			}
			for _, r := range rows {
				if err := h.partitionBuild(bparts, keys, seed, r); err != nil {
					return false, err
				}
			}
			rows, slab = nil, nil
		}
		return true, nil
	})
	if err != nil {
		discardAll(bparts)
		return false, err
	}
	if bparts == nil {
		var probeNode relNode
		if depth == 0 {
			probeNode = h.probeNode // deeper, probe reads a partition file
		}
		return h.n.joinRows(h.x, h.fn, rows, h.buildLeft, h.bkeys, h.pkeys, probe, probeNode, h.narrow)
	}
	pparts, err := h.createParts()
	if err != nil {
		discardAll(bparts)
		return false, err
	}
	undo := keys.install(h.x)
	err = probe(func(row []types.Value) (bool, error) {
		return true, h.partition(pparts, seed, h.pkeys, row, row)
	})
	undo()
	if err != nil {
		discardAll(bparts)
		discardAll(pparts)
		return false, err
	}
	for i := range bparts {
		b, p := bparts[i], pparts[i]
		bparts[i], pparts[i] = nil, nil
		stopped, err := h.joinPart(b, p, depth)
		if err != nil || stopped {
			discardAll(bparts[i+1:])
			discardAll(pparts[i+1:])
			return stopped, err
		}
	}
	return false, nil
}

// joinPart joins one partition of the build side with the same partition
// of the probe side; both files are gone afterwards.
func (h *hashJoinRun) joinPart(b, p *spill.Writer, depth int) (bool, error) {
	br, err := b.Finish()
	if err != nil {
		p.Discard()
		return false, err
	}
	defer br.Close()
	pr, err := p.Finish()
	if err != nil {
		return false, err
	}
	defer pr.Close()
	return h.join(readAll(h.x, br), readAll(h.x, pr), depth+1)
}

// readAll streams the rows of a partition file.
func readAll(x *execCtx, r *spill.Reader) func(rowFn) error {
	return func(fn rowFn) error {
		for {
			if err := x.poll(); err != nil {
				return err
			}
			row, err := r.Next()
			if err != nil || row == nil {
				return err
			}
			if more, err := fn(row); err != nil || !more {
				return err
			}
		}
	}
}

func (h *hashJoinRun) createParts() ([]*spill.Writer, error) {
	parts := make([]*spill.Writer, joinFanOut)
	for i := range parts {
		w, err := spill.Create(h.x.s.e.spill)
		if err != nil {
			discardAll(parts)
			return nil, err
		}
		parts[i] = w
	}
	h.x.s.e.spilled.Add(joinFanOut)
	return parts, nil
}

// partitionBuild writes a build row to its partition, its keys to the
// probe's runtime filters.
func (h *hashJoinRun) partitionBuild(parts []*spill.Writer, keys *spillKeys, seed maphash.Seed, row []types.Value) error {
	wide := h.bw.widen(row)
	if err := keys.add(h.x, wide); err != nil {
		return err
	}
	return h.partition(parts, seed, h.bkeys, wide, row)
}

// partition writes row to the partition of its key, evaluated on keyRow
// (the first for a NULL key, which matches nothing).
func (h *hashJoinRun) partition(parts []*spill.Writer, seed maphash.Seed, keys []expr.Compiled, keyRow, row []types.Value) error {
	if err := h.x.poll(); err != nil {
		return err
	}
	key, ok, err := encodeKey(h.key[:0], keys, h.n.keyTypes, keyRow, h.x.ctx)
	h.key = key
	if err != nil {
		return err
	}
	p := uint64(0)
	if ok {
		p = maphash.Bytes(seed, key) % uint64(len(parts))
	}
	return parts[p].Write(row)
}

func discardAll(parts []*spill.Writer) {
	for i, w := range parts {
		if w != nil {
			w.Discard()
			parts[i] = nil
		}
	}
}
