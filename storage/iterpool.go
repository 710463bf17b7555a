package storage

import (
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

// Reused iterators for short reads
//
// Creating and closing a Pebble iterator (its allocation from Pebble's
// pool, the read state's reference, a table iterator per level, and
// zeroing it all again on Close) costs more than the seek of a key-value
// lookup. Reuse returns a Reader whose iterators come from a small pool of
// closed ones, repositioned with new bounds.
//
// A live-store iterator sees the store as of its creation, so a pooled one
// may only be handed out while nothing was written since it was made. The
// pool is tagged with the store's write generation: every commit and
// ingestion bumps it after its data is visible and empties the pool; an
// iterator made when the generation was g holds at least every write that
// bumped the generation up to g, so it is reused only while the generation
// is still g. A write acknowledged before a read began has bumped the
// generation, so the read gets a fresh iterator and sees it.
//
// A pooled iterator pins the tables and memtables of its view; flushes and
// compactions empty the pool too (from a goroutine of their own), so an
// idle pool holds no file the store has replaced.

// maxPooledIters bounds the iterators the pool keeps.
const maxPooledIters = 8

// iterPool is a store's pool of reusable iterators.
type iterPool struct {
	gen  atomic.Uint64
	mu   sync.Mutex
	free []pooledIter
	// closed is set by DB.Close: nothing is pooled after.
	closed bool
}

type pooledIter struct {
	it  *pebble.Iterator
	gen uint64
}

// reusing is the Reader of DB.Reuse.
type reusing struct{ db *DB }

// Reuse returns a Reader of the live store whose iterators are reused
// between reads (see iterPool). It suits many short reads, each closing
// its iterator soon; its reads see the same data as the DB's.
func (db *DB) Reuse() Reader { return reusing{db} }

func (r reusing) Get(key []byte) ([]byte, error) { return r.db.Get(key) }

func (r reusing) NewIter(lower, upper []byte) (*Iter, error) {
	it, gen, err := r.open(lower, upper)
	if err != nil {
		return nil, err
	}
	return &Iter{it: it, pool: &r.db.iters, gen: gen}, nil
}

// NewIterInto is NewIter made in *dst, which the caller keeps between
// reads (the point lookup's version walk): no allocation for the Iter.
// REQUIRES: *dst is closed or zero; nothing else holds dst while it is
// open.
func (r reusing) NewIterInto(dst *Iter, lower, upper []byte) error {
	if dst.it != nil {
		panic("BUG: storage.NewIterInto over an open iterator")
	}
	it, gen, err := r.open(lower, upper)
	if err != nil {
		return err
	}
	*dst = Iter{it: it, pool: &r.db.iters, gen: gen}
	return nil
}

// open returns a pooled iterator of the current write generation
// repositioned to [lower, upper), or a new one, and that generation.
func (r reusing) open(lower, upper []byte) (*pebble.Iterator, uint64, error) {
	p := &r.db.iters
	gen := p.gen.Load()
	var it *pebble.Iterator
	var stale []pooledIter
	p.mu.Lock()
	for n := len(p.free); n > 0; n-- {
		last := p.free[n-1]
		p.free = p.free[:n-1]
		if last.gen == gen {
			it = last.it
			break
		}
		// Stale: a write came after it (the writer empties the pool, but
		// may not have reached it yet).
		stale = append(stale, last)
	}
	p.mu.Unlock()
	// Closed outside the lock: a Close may wait for Pebble's own locks.
	for _, s := range stale {
		_ = s.it.Close()
	}
	if it != nil {
		it.SetBounds(lower, upper)
		return it, gen, nil
	}
	it, err := r.db.pdb.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, 0, err
	}
	return it, gen, nil
}

// put takes back an iterator of generation gen, or closes it when it is
// stale, failed or the pool is full.
func (p *iterPool) put(it *pebble.Iterator, gen uint64) error {
	if err := it.Error(); err != nil {
		_ = it.Close()
		return err
	}
	p.mu.Lock()
	if !p.closed && gen == p.gen.Load() && len(p.free) < maxPooledIters {
		p.free = append(p.free, pooledIter{it: it, gen: gen})
		it = nil
	}
	p.mu.Unlock()
	if it != nil {
		return it.Close()
	}
	return nil
}

// changed records a write: the pooled iterators are stale. Called after
// the write is visible.
func (p *iterPool) changed() {
	p.gen.Add(1)
	p.drain(false)
}

// drain closes the pooled iterators; close also stops pooling.
func (p *iterPool) drain(close bool) {
	p.mu.Lock()
	free := p.free
	p.free = nil
	if close {
		p.closed = true
	}
	p.mu.Unlock()
	for _, f := range free {
		_ = f.it.Close()
	}
}

// replaced is the store's flushes' and compactions' event: the pooled
// iterators may pin what they replaced. Pebble calls it on its own
// goroutines, possibly holding its locks, so the iterators are closed on
// another goroutine (a Close may need those locks).
func (p *iterPool) replaced() {
	p.gen.Add(1)
	go p.drain(false)
}
