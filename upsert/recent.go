package upsert

import (
	"sync"
	"sync/atomic"
)

// The key table
//
// The serial section needs three things of a key that grouped commits
// wrote: its newest pending version (a later commit resolves against it
// before its group is in the store, group.go), the last commit that wrote
// it (conflict detection for resolutions outside the serial section,
// preresolve.go), and the version the store holds once the group is
// written (so a resolution does not seek the store: on a merge-on-write
// table the seek is most of a small commit's CPU, and connectors rewrite
// the same keys again and again). They were three hash maps, each touched
// per key per commit; with tens of thousands of keys every access missed
// the CPU cache. The key table keeps them in one entry per key (keyState):
// the serial section finds a key's entry with one lookup, updates it in
// place when its commit joins a group, and publishing a written group walks
// the group's entries without hashing.
//
// An entry's version is the newest any grouped commit wrote. While its
// group is pending (g set) it is the pending version; once the group is
// written it is what the store holds for the key, as long as the table's
// epoch did not move since: every write that changes rows without a
// commit sequence number (changedOutside: staged ingestion, delete
// predicates, TTL purges, DDL, commits written alone) and every failed
// group write moves the epoch before it bumps the external count, which
// turns every written version into "unknown" at once. A resolution outside
// the serial section that read the table after such a write therefore saw
// no stale version, and one that read it before is redone (stale). The
// epoch does not touch the sequence numbers: conflict detection stays
// exact.
//
// The table keeps two generations of entries in one index (keyindex.go):
// every entry carries the generation it was last written in. Writes go to
// the current one; a key of the older one moves to the current one when
// written again (its tag changes; the index does not). The current one
// rotates when it holds lastWriteKeys keys or half of recentBytes; the
// entries of the oldest are dropped then (one pass over the list of the
// entries tagged with it), its pending entries carried into the new one (a
// pending version must always be found).
// (Two maps, one per generation, cost a failed lookup in the newer one and
// an insert into it for every key written again from the older one: most
// keys, when connectors cycle through more keys than a generation holds.)
// Sequence numbers of dropped entries are forgotten: floor is the highest
// sequence number a dropped entry may carry, and a resolution that saw
// fewer commits than floor is redone entirely.
//
// Concurrency: the table changes only under the Writer's mu and the
// table's own mu together, but for the epoch, which forget moves under the
// table's mu alone. The serial section (holding mu) reads it
// without the table's mu; resolutions outside the serial section take the
// table's mu per batch of lookups (lookupAll).

// recentBytes bounds the bytes the table holds: it keeps two generations
// and starts a new one when the current holds half of recentBytes. (A
// variable for tests.)
var recentBytes = 32 << 20

// lastWriteKeys bounds the keys one generation holds before it rotates, so
// the two hold at most twice as many; a resolution that spans more writes
// than that is redone. (A variable for tests.)
var lastWriteKeys = 1 << 16

// recentChunk is the size of the chunks the table copies versions into.
const recentChunk = 64 << 10

// entryBytes is what an entry costs beyond its key and version: the index
// slots, the entry, its place in a generation's list.
const entryBytes = 128

// keyState is what the Writer knows of one key grouped commits wrote.
type keyState struct {
	h        uint64        // the hash of the row key prefix (keyIndex)
	plen     int           // the length of the row key prefix: key starts with it
	seq      uint64        // the last commit that wrote the key
	key, val []byte        // the newest version written: its key and value
	g        *pendingGroup // its group while pending; nil once written
	epoch    uint64        // for a written version: the table's epoch then
	gen      uint64        // the generation the entry is tagged with
}

// prefix is the row key prefix of the entry's key.
func (e *keyState) prefix() []byte { return e.key[:e.plen] }

// keyGen is one generation of the key table.
type keyGen struct {
	id      uint64
	keys    int // entries tagged with this generation
	bytes   int
	pending int // entries of this generation with a pending version
	// list holds every entry tagged with this generation (and entries
	// tagged with it before that moved on since: a rotation skips them).
	list []*keyState
}

// keyTable is the per-key state of grouped commits (see the comment above).
type keyTable struct {
	mu       sync.Mutex
	idx      keyIndex // the entries of both generations
	cur, old keyGen
	nextGen  uint64
	epoch    atomic.Uint64 // moves under mu alone (forget)
	chunk    []byte        // where versions are copied; under the Writer's mu
	// floor: a resolution that saw fewer commits may miss a dropped key;
	// rotated: the highest sequence number in the generations before the
	// current one.
	floor, rotated uint64
	hits           atomic.Int64 // lookups answered with a written version
}

// lookup returns the entry of the key with row key prefix p, or nil.
// REQUIRES: the Writer's mu or t.mu held.
func (t *keyTable) lookup(p []byte) *keyState {
	if t.idx.len() == 0 {
		return nil
	}
	return t.idx.find(p, t.idx.hash(p))
}

// reachable returns e when the table still finds it (its generation is
// the current or the older one: then it is the key's only entry, and
// lookup would return it), else nil. REQUIRES: the Writer's mu or t.mu
// held.
func (t *keyTable) reachable(e *keyState) *keyState {
	if e != nil && (e.gen == t.cur.id || e.gen == t.old.id) {
		return e
	}
	return nil
}

// written returns the version the store holds for the key of e, if e
// knows it. REQUIRES: the Writer's mu or t.mu held.
func (t *keyTable) written(e *keyState) (key, val []byte, ok bool) {
	if e == nil || e.g != nil || e.epoch != t.epoch.Load() || e.key == nil {
		return nil, nil, false
	}
	t.hits.Add(1)
	return e.key, e.val, true
}

// copyVersion copies a version a commit writes into the table's chunks; the
// copies are never modified. REQUIRES: the Writer's mu held.
func (t *keyTable) copyVersion(key, val []byte) (kc, vc []byte) {
	if n := len(key) + len(val); cap(t.chunk)-len(t.chunk) < n {
		t.chunk = make([]byte, 0, max(recentChunk, n))
	}
	t.chunk, kc, vc = appendPair(t.chunk, key, val)
	return kc, vc
}

// pendingOf returns the pending count of generation id. REQUIRES: t.mu.
func (t *keyTable) pendingOf(id uint64) *int {
	switch id {
	case t.cur.id:
		return &t.cur.pending
	case t.old.id:
		return &t.old.pending
	}
	panic("BUG: a pending key's generation was dropped")
}

// record notes that commit seq of group g wrote version key, val of the
// key of pw (its entry, or its prefix for a key without one), and returns
// the key's entry. REQUIRES: the Writer's mu and t.mu held.
func (t *keyTable) record(seq uint64, g *pendingGroup, pw *pendingWrite) *keyState {
	size := len(pw.prefix) + len(pw.key) + len(pw.val) + entryBytes
	if t.nextGen == 0 || t.cur.keys >= lastWriteKeys || t.cur.bytes+size > recentBytes/2 {
		t.rotate(seq)
	}
	e := pw.e
	switch {
	case e == nil:
		e = &keyState{h: t.idx.hash(pw.prefix), plen: len(pw.prefix), key: pw.key}
		t.idx.insert(e)
		t.cur.keys++
		t.cur.list = append(t.cur.list, e)
	case e.gen == t.old.id:
		t.old.keys-- // moves to the current generation
		t.cur.keys++
		t.cur.list = append(t.cur.list, e)
	case e.gen != t.cur.id:
		// Dropped by a rotation this commit's own writes caused after
		// its lookups: no other entry of the key was made since (a
		// commit writes a key once).
		t.idx.insert(e)
		t.cur.keys++
		t.cur.list = append(t.cur.list, e)
	}
	if e.g != nil {
		*t.pendingOf(e.gen)--
	}
	e.gen, e.g, e.seq, e.key, e.val = t.cur.id, g, seq, pw.key, pw.val
	t.cur.pending++
	t.cur.bytes += size
	return e
}

// rotate starts a new generation, drops the entries of the oldest and
// carries its pending entries over. Commit seq is recording. REQUIRES: the
// Writer's mu and t.mu held.
func (t *keyTable) rotate(seq uint64) {
	dropped := t.old
	t.old = t.cur
	t.nextGen++
	// The new generation's list reuses the dropped one's array: it takes
	// at most one entry per entry read, so it never overtakes the walk.
	t.cur = keyGen{id: t.nextGen, list: dropped.list[:0]}
	for _, e := range dropped.list {
		if e.gen != dropped.id {
			continue // moved to a newer generation since
		}
		if e.g != nil {
			e.gen = t.cur.id
			t.cur.keys++
			t.cur.pending++
			t.cur.list = append(t.cur.list, e)
			continue
		}
		t.idx.remove(e) // its gen stays the dropped one: unreachable
	}
	clear(dropped.list[len(t.cur.list):])
	// The dropped generation held writes of commits up to the last
	// rotation; the one now older those up to seq (seq included: it may
	// have recorded keys before this rotation).
	t.floor, t.rotated = t.rotated, seq
}

// publish marks the entries of g written now that g is in the store, or,
// when its write failed, forgets every written version. epoch is the
// table's epoch read before the write: a write outside the commit sequence
// since then (a TTL purge, which runs without the commit lock, may already
// have deleted g's rows) moved it, and g's versions are unknown at once.
// REQUIRES: the Writer's mu and t.mu held.
func (t *keyTable) publish(g *pendingGroup, ok bool, epoch uint64) {
	if !ok {
		t.epoch.Add(1)
	}
	for _, e := range g.entries {
		if e.g != g {
			continue // a later pending commit wrote the key again
		}
		*t.pendingOf(e.gen)--
		e.g = nil
		if ok {
			e.epoch = epoch
		}
	}
}

// forget makes every written version unknown: the store changed in ways
// the table does not follow.
func (t *keyTable) forget() {
	t.mu.Lock()
	t.epoch.Add(1)
	t.mu.Unlock()
}

// publishRecent marks the versions of g written now that g is in the
// store (when its write succeeded); epoch is the key table's epoch read
// before the write. REQUIRES: w.mu held.
func (w *Writer) publishRecent(g *pendingGroup, ok bool, epoch uint64) {
	w.keys.mu.Lock()
	w.keys.publish(g, ok, epoch)
	w.keys.mu.Unlock()
}

// RecentHits is the number of current versions found in the key table
// instead of the store.
func (w *Writer) RecentHits() int64 { return w.keys.hits.Load() }
