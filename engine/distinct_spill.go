package engine

import (
	"hash/maphash"

	"loadgw/spill"
	"loadgw/types"
)

// distinctEntryBytes estimates the bookkeeping of one value set DISTINCT
// holds, beyond twice its key's bytes.
const distinctEntryBytes = 64

// distinctRows emits the rows source streams whose first width values no
// earlier row had, holding at most budget bytes of seen values (0: no
// bound): past it, the values seen stay and still drop their repeats, and
// rows with values not seen go to partition files by a hash of them, each
// made distinct on its own afterwards (re-partitioned when still too big,
// up to joinMaxDepth). stopped reports that fn asked for no more rows.
func distinctRows(x *execCtx, width int, budget int64, depth int, source func(rowFn) error, fn rowFn) (stopped bool, err error) {
	seen := map[string]struct{}{}
	var mem int64
	var parts []*spill.Writer
	var key []byte
	seed := maphash.MakeSeed()
	err = source(func(row []types.Value) (bool, error) {
		key = rowKey(key[:0], row[:width])
		if _, ok := seen[string(key)]; ok {
			return true, nil
		}
		if parts != nil {
			if err := x.poll(); err != nil {
				return false, err
			}
			return true, parts[maphash.Bytes(seed, key)%uint64(len(parts))].Write(row)
		}
		seen[string(key)] = struct{}{}
		mem += 2*int64(len(key)) + distinctEntryBytes
		if budget > 0 && mem > budget && depth < joinMaxDepth {
			parts = make([]*spill.Writer, joinFanOut)
			for i := range parts {
				w, err := spill.Create(x.s.e.spill)
				if err != nil {
					return false, err
				}
				parts[i] = w
			}
			x.s.e.spilled.Add(joinFanOut)
		}
		more, err := fn(row)
		stopped = !more
		return more, err
	})
	if err != nil || stopped {
		discardAll(parts)
		return stopped, err
	}
	seen = nil
	for i, w := range parts {
		parts[i] = nil
		stopped, err = distinctPart(x, width, budget, depth, w, fn)
		if err != nil || stopped {
			discardAll(parts[i+1:])
			return stopped, err
		}
	}
	return false, nil
}

func distinctPart(x *execCtx, width int, budget int64, depth int, w *spill.Writer, fn rowFn) (bool, error) {
	if w.Rows() == 0 {
		w.Discard()
		return false, nil
	}
	r, err := w.Finish()
	if err != nil {
		return false, err
	}
	defer r.Close()
	return distinctRows(x, width, budget, depth+1, readAll(x, r), fn)
}
