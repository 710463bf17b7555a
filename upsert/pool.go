package upsert

import (
	"math/bits"
	"sync"
)

// Buffers reused across commits
//
// A 1,000-row commit allocated about 1 MB of short-lived buffers on a
// merge-on-write table with Row Binlog (the encoded rows' chunks, the rows
// sorted by key, the outcome of resolving each key before the serial
// section, the versions it wrote for the key table), which the garbage
// collector then had to find and free: with many small loads a second, the
// collector's marking and its write barriers were a sixth of the CPU. The
// buffers now go back to pools once their commit is done with them.

// chunkPools holds the encoded rows' arena chunks, one pool per capacity:
// firstChunk << i up to arenaChunk.
var chunkPools [chunkClasses]sync.Pool // *[]byte

const chunkClasses = 6 // 32 KiB .. 1 MiB

// chunkClass is the pool of a chunk of capacity size, or -1 when chunks of
// that size are not pooled.
func chunkClass(size int) int {
	if size < firstChunk || size > arenaChunk || size&(size-1) != 0 {
		return -1
	}
	return bits.TrailingZeros(uint(size)) - bits.TrailingZeros(uint(firstChunk))
}

// getChunk returns an empty chunk of capacity size.
func getChunk(size int) []byte {
	if c := chunkClass(size); c >= 0 {
		if p, _ := chunkPools[c].Get().(*[]byte); p != nil {
			return (*p)[:0]
		}
	}
	return make([]byte, 0, size)
}

// refPool holds the rows' index slices (encodedRows.ents).
var refPool sync.Pool // *[]encodedRef

// maxPooledRefs bounds the index a pooled slice keeps: the index of a large
// commit goes to the garbage collector instead of staying pinned.
const maxPooledRefs = 1 << 16

// release returns e's chunks and index to the pools and empties e.
// REQUIRES: nothing refers to e's rows any more (its commit is done: the
// batch, the key table and the change records hold copies).
func (e *encodedRows) release() {
	if e.bytes > groupMaxBytes {
		// A large commit's chunks (up to its whole input) would stay
		// pinned in the pool until two collections pass.
		*e = encodedRows{}
		return
	}
	for _, ch := range e.chunks {
		if c := chunkClass(cap(ch)); c >= 0 {
			ch = ch[:0]
			chunkPools[c].Put(&ch)
		}
	}
	if e.ents != nil && cap(e.ents) <= maxPooledRefs {
		ents := e.ents[:0]
		refPool.Put(&ents)
	}
	*e = encodedRows{}
}

// newRefs returns an empty index slice, reused when the pool has one.
func newRefs() []encodedRef {
	if p, _ := refPool.Get().(*[]encodedRef); p != nil {
		return (*p)[:0]
	}
	return make([]encodedRef, 0, 1024)
}

// prePool holds the resolutions outside the serial section with their
// slices (sorted rows, outcomes, the arena of current versions).
var prePool sync.Pool // *preResolved

// maxPooledPre bounds the rows a pooled resolution keeps.
const maxPooledPre = 1 << 16

// maxPooledFound bounds the arena of current versions a pooled resolution
// keeps.
const maxPooledFound = 4 << 20

// newPreResolved returns an empty resolution, reused when the pool has one.
func newPreResolved() *preResolved {
	if p, _ := prePool.Get().(*preResolved); p != nil {
		return p
	}
	return &preResolved{}
}

// release returns p to the pool. REQUIRES: its commit is done (the
// outcomes point into the commit's rows and its arena).
func (p *preResolved) release() {
	if p == nil || cap(p.ents) > maxPooledPre || cap(p.prefixes) > maxPooledPre || cap(p.found) > maxPooledFound {
		return
	}
	clear(p.ents)
	clear(p.keys)
	clear(p.prefixes)
	*p = preResolved{ents: p.ents[:0], keys: p.keys[:0], prefixes: p.prefixes[:0], found: p.found[:0]}
	prePool.Put(p)
}

// writtenPool holds the slices of versions a commit wrote (for the key
// table's join).
var writtenPool sync.Pool // *[]pendingWrite

// newWritten returns an empty slice for n written versions.
func newWritten(n int) []pendingWrite {
	if p, _ := writtenPool.Get().(*[]pendingWrite); p != nil && cap(*p) >= n {
		return (*p)[:0]
	}
	return make([]pendingWrite, 0, n)
}

// putWritten returns a slice of written versions once the key table
// recorded them (join copied what it keeps).
func putWritten(ws []pendingWrite) {
	if ws == nil || cap(ws) > maxPooledPre {
		return
	}
	clear(ws)
	ws = ws[:0]
	writtenPool.Put(&ws)
}
