package upsert

import "sync"

// Recently committed versions
//
// Finding a key's current version is a seek into the store: on a
// merge-on-write table it is most of a small commit's CPU time (the
// memtable's skiplist misses the cache at every level). Loads from
// connectors rewrite the same keys again and again, so the Writer keeps
// the version each grouped commit wrote of each key once its group is in
// the store (recentVersions), and a resolution looks there before it seeks.
//
// The cache holds exactly what the store holds for its keys: a key enters
// it only with the version the last written group wrote of it (write, under
// mu, in TSO order), and every write that changes rows without a commit
// sequence number (changedOutside: staged ingestion, delete predicates,
// TTL purges, DDL, commits written alone) empties it before it bumps the
// external count. A resolution outside the serial section that read the
// cache after such a write therefore saw no stale entry, and one that read
// it before is redone (stale). A failed group write empties it too.

// recentBytes bounds the bytes the cache holds: it keeps two generations
// and drops the older one when the newer holds half of recentBytes. (A
// variable for tests.)
var recentBytes = 32 << 20

// recentChunk is the size of the chunks the cache copies versions into.
const recentChunk = 64 << 10

// recentVersions is the cache of recently committed versions. The keys
// and values it returns are never modified: callers may keep them.
type recentVersions struct {
	mu       sync.Mutex
	cur, old recentGen
	hits     int64 // under mu: lookups it answered
}

// recentGen is one generation: versions by row key prefix, and the chunks
// that hold their keys and values.
type recentGen struct {
	m     map[string]recentVersion
	chunk []byte
	bytes int
}

// recentVersion is a committed version: the key it is stored under and its
// value.
type recentVersion struct {
	key, val []byte
}

// get returns the committed version of the key with row key prefix p, if
// the cache holds it.
func (r *recentVersions) get(p []byte) (recentVersion, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.cur.m[string(p)]; ok {
		r.hits++
		return v, true
	}
	if v, ok := r.old.m[string(p)]; ok {
		r.hits++
		return v, true
	}
	return recentVersion{}, false
}

// putLocked records that the store now holds version key, val of the key
// with row key prefix p. REQUIRES: r.mu held.
func (r *recentVersions) putLocked(p string, key, val []byte) {
	size := len(p) + len(key) + len(val) + 64 // map slot and headers
	if r.cur.bytes+size > recentBytes/2 {
		// The new generation is made as large as the last one grew, so
		// filling it does not rehash it again and again.
		r.old, r.cur = r.cur, recentGen{m: make(map[string]recentVersion, len(r.cur.m))}
	}
	if r.cur.m == nil {
		r.cur.m = map[string]recentVersion{}
	}
	var k, v []byte
	if n := len(key) + len(val); cap(r.cur.chunk)-len(r.cur.chunk) < n {
		r.cur.chunk = make([]byte, 0, max(recentChunk, n))
	}
	r.cur.chunk, k, v = appendPair(r.cur.chunk, key, val)
	r.cur.m[p] = recentVersion{key: k, val: v}
	r.cur.bytes += size
}

// clear empties the cache: the store changed in ways it does not follow.
func (r *recentVersions) clear() {
	r.mu.Lock()
	r.clearLocked()
	r.mu.Unlock()
}

func (r *recentVersions) clearLocked() { r.cur, r.old = recentGen{}, recentGen{} }

// publishRecent moves the versions of g out of the overlay now that g is
// in the store: into the cache when its write succeeded. REQUIRES: w.mu
// held.
func (w *Writer) publishRecent(g *pendingGroup, ok bool) {
	w.recent.mu.Lock()
	defer w.recent.mu.Unlock()
	if !ok {
		w.recent.clearLocked()
	}
	for _, k := range g.keys {
		v, found := w.overlay[k]
		if !found || v.g != g {
			continue // a later pending commit wrote the key again
		}
		delete(w.overlay, k)
		if ok {
			w.recent.putLocked(k, v.key, v.val)
		}
	}
}

// RecentHits is the number of current versions found in the cache of
// recently committed versions instead of the store.
func (w *Writer) RecentHits() int64 {
	w.recent.mu.Lock()
	defer w.recent.mu.Unlock()
	return w.recent.hits
}
