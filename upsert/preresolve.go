package upsert

import (
	"bytes"
	"slices"

	"loadgw/catalog"
)

// Resolution outside the serial section
//
// Finding a key's current version is a seek into the store, most of a
// merge-on-write commit's work. A commit of a merge-on-write or Aggregate
// Key table therefore resolves its keys before it enters the serial
// section, against the store as it stands then (preResolve); in the serial
// section it keeps the outcome of every key that no commit changed since,
// and resolves again only the keys one did, against the pending versions
// and the store as they are then (serial order, as before). So the final
// state, the change records and every result equal a serial replay in TSO
// order, while the seeks of concurrent commits run in parallel.
//
// Conflicts are found with the commit sequence: each commit that joins a
// group takes the next sequence number and records, per key it wrote, that
// number (in the key's entry of the key table, recent.go); applied is the highest sequence number whose
// group is in the store. A resolution that read applied = S before it
// opened its iterator saw at least the commits up to S, so a key whose
// lastWrite is above S may have changed since: it is resolved again. Writes
// that bypass the commit sequence (ingestion of staged rows, delete
// predicates, TTL purges, DDL under Lock) bump external; a resolution that
// saw another external count is redone entirely.

// preKey is the outcome of resolving one key outside the serial section.
type preKey struct {
	oldVal, oldKey, val []byte
	ok                  bool // resolved without an error
	// e is the key's entry in the key table then (nil: none), so the
	// serial section need not hash the key again while e is reachable.
	e *keyState
	// from is what the key table told of the key (lookupAll).
	from preFrom
}

// preFrom is what the key table knew of a key when a resolution outside
// the serial section looked it up.
type preFrom uint8

const (
	fromStore   preFrom = iota // nothing: the store holds the current version
	fromPending                // a pending commit wrote it: resolved in the serial section
	fromTable                  // the version the store holds (oldVal, oldKey)
)

// preResolved is a commit's keys resolved outside the serial section: the
// rows sorted by key, and per run of rows of one key its outcome.
type preResolved struct {
	ents     []encodedRow
	keys     []preKey
	prefixes [][]byte // per key its row key prefix (for lookupAll)
	applied  uint64   // the commits up to this sequence number were seen
	external uint64   // the external write count then
	found    []byte   // the arena holding the current versions (oldVal, oldKey)
}

// preResolve resolves the keys of set against the store outside the serial
// section, or returns nil where the serial section must do it all: other
// tables than merge-on-write and Aggregate Key ones, and tables whose
// resolution may take values that depend on the commit (AUTO_INCREMENT ids,
// defaults of the current time for columns added after a row was written).
func (w *Writer) preResolve(rc *catalog.RowCodec, set *encodedRows, partial *Partial) *preResolved {
	t := rc.Table()
	if !t.MergeOnWrite() && t.Keys != catalog.AggKeys {
		return nil
	}
	for _, c := range t.Columns {
		if c.AutoInc || (c.Default != nil && (c.Default.Kind == catalog.DefaultCurrentTimestamp || c.Default.Kind == catalog.DefaultCurrentDate)) {
			return nil
		}
	}
	// Read before the iterator opens (the first store read, stored): it
	// then holds at least the commits up to applied.
	external, applied := w.external.Load(), w.applied.Load()
	g, err := newGroupWriter(w, rc, 0, partial, nil, nil)
	if err != nil {
		return nil
	}
	defer g.close()
	p := newPreResolved()
	p.external, p.applied = external, applied
	g.found = p.found
	defer func() { p.found = g.found }()
	p.ents = sortedRowsInto(p.ents, set)
	for i := 0; i < len(p.ents); i++ {
		if i == 0 || !bytes.Equal(p.ents[i].key, p.ents[i-1].key) {
			p.prefixes = append(p.prefixes, p.ents[i].key)
		}
	}
	if cap(p.keys) < len(p.prefixes) {
		p.keys = make([]preKey, len(p.prefixes))
	}
	p.keys = p.keys[:len(p.prefixes)]
	// The key table after applied was read: a version it holds as written
	// is in the store; a key it does not hold is read from the store by an
	// iterator opened after that, which misses no commit up to applied; a
	// commit after applied that wrote the key carries a higher sequence
	// number (stale), one whose entry a rotation dropped is below floor.
	w.keys.lookupAll(p.prefixes, p.keys)
	i := 0
	eachKey(p.ents, func(prefix []byte, vals, masks [][]byte) error {
		k := &p.keys[i]
		i++
		if k.from == fromPending {
			// A pending commit wrote the key: the serial section resolves
			// it again in any case (its sequence number is above applied).
			return nil
		}
		if k.from == fromStore {
			var err error
			if k.oldVal, k.oldKey, err = g.stored(prefix); err != nil {
				return nil // not ok: the serial section resolves it again
			}
		}
		val, err := g.resolve(prefix, vals, masks, k.oldVal)
		k.val, k.ok = val, err == nil
		return nil
	})
	return p
}

// lookupBatch is how many keys lookupAll looks up per hold of the key
// table's lock: long enough to pay for the lock, short enough not to hold
// up the serial section's writes to the table.
const lookupBatch = 64

// lookupAll fills in, for each row key prefix of ps, out's entry and what
// the table knows of the key: a pending version, the version the store
// holds, or nothing.
func (t *keyTable) lookupAll(ps [][]byte, out []preKey) {
	hits := 0
	var hsBuf [lookupBatch]uint64
	hs := hsBuf[:0]
	for lo := 0; lo < len(ps); lo += lookupBatch {
		hi := min(len(ps), lo+lookupBatch)
		t.mu.Lock()
		if t.idx.len() > 0 {
			hs := t.idx.prefetch(ps[lo:hi], hs[:0])
			for i := lo; i < hi; i++ {
				e := t.idx.find(ps[i], hs[i-lo])
				k := &out[i]
				k.e = e
				switch {
				case e == nil:
				case e.g != nil:
					k.from = fromPending
				case e.epoch == t.epoch.Load() && e.key != nil:
					k.oldKey, k.oldVal, k.from = e.key, e.val, fromTable
					hits++
				}
			}
		}
		t.mu.Unlock()
	}
	t.hits.Add(int64(hits))
}

// refresh sets each key's entry in p to the one the table holds now: the
// entry the resolution found while the table still holds it (its
// generation is not dropped: then it is the key's only entry), else a
// lookup, since a key the resolution found none for may have one now.
// The lookups go in batches (prefetch). REQUIRES: the Writer's mu held.
func (t *keyTable) refresh(p *preResolved) {
	var at [lookupBatch]int
	var ps [lookupBatch][]byte
	var hsBuf [lookupBatch]uint64
	n := 0
	flush := func() {
		hs := t.idx.prefetch(ps[:n], hsBuf[:0])
		for j := 0; j < n; j++ {
			p.keys[at[j]].e = t.idx.find(ps[j], hs[j])
		}
		n = 0
	}
	for i := range p.keys {
		k := &p.keys[i]
		if k.e = t.reachable(k.e); k.e != nil || t.idx.len() == 0 {
			continue
		}
		at[n], ps[n] = i, p.prefixes[i]
		if n++; n == lookupBatch {
			flush()
		}
	}
	if n > 0 {
		flush()
	}
}

// sortedRows returns the rows of set sorted by key, each key's rows in
// input order.
func sortedRows(set *encodedRows) []encodedRow {
	return sortedRowsInto(nil, set)
}

// sortedRowsInto is sortedRows reusing the slice ents.
func sortedRowsInto(ents []encodedRow, set *encodedRows) []encodedRow {
	if cap(ents) < set.len() {
		ents = make([]encodedRow, set.len())
	}
	ents = ents[:set.len()]
	sorted := true
	for i := range ents {
		ents[i] = set.row(i)
		sorted = sorted && (i == 0 || bytes.Compare(ents[i-1].key, ents[i].key) <= 0)
	}
	if !sorted { // loads often send their rows in key order: then no sort
		slices.SortStableFunc(ents, func(a, c encodedRow) int { return bytes.Compare(a.key, c.key) })
	}
	return ents
}

// eachKey calls fn for each run of rows of one key of the sorted ents, in
// order, with the rows' values and masks; it stops at fn's first error.
func eachKey(ents []encodedRow, fn func(prefix []byte, vals, masks [][]byte) error) error {
	var vals, masks [][]byte
	for i := 0; i < len(ents); {
		j := i + 1
		for j < len(ents) && bytes.Equal(ents[j].key, ents[i].key) {
			j++
		}
		vals, masks = vals[:0], masks[:0]
		for k := i; k < j; k++ {
			vals = append(vals, ents[k].val)
			masks = append(masks, ents[k].mask)
		}
		if err := fn(ents[i].key, vals, masks); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// stale reports whether the outcome of resolving a key before the serial
// section may be out of date; e is the key's entry in the key table (nil:
// none). REQUIRES: w.mu held.
func (w *Writer) stale(p *preResolved, e *keyState) bool {
	if p.external != w.external.Load() || p.applied < w.keys.floor {
		return true
	}
	return e != nil && e.seq > p.applied
}

// changedOutside tells resolutions outside the serial section that rows
// changed without a commit sequence number (see the comment above).
// It makes the key table forget the written versions first (recent.go).
func (w *Writer) changedOutside() {
	w.keys.forget()
	w.external.Add(1)
}
