package load

import (
	"sync"

	"loadgw/types"
)

// Source batches are reused across loads: a small load made two or three
// (about 220 KB of values and reasons, and its rows' raw text grown by
// appending, some 370 KB for 1,000 JSON rows), which the garbage collector
// then had to find and free (BenchmarkLoad1000Rows, -benchmem).
var srcBatches sync.Pool // *srcBatch

// maxPooledRaw bounds the raw text a pooled batch keeps: a batch of long
// lines goes to the garbage collector instead of pinning its buffer.
const maxPooledRaw = 1 << 20

// getSrcBatch returns a batch for rows of nsrc source values, reused when
// the pool has one.
func getSrcBatch(nsrc int) *srcBatch {
	b, _ := srcBatches.Get().(*srcBatch)
	if b == nil {
		return newSrcBatch(nsrc)
	}
	if n := nsrc * srcBatchRows; cap(b.vals) >= n {
		b.vals = b.vals[:n]
	} else {
		b.vals = make([]types.Value, n)
	}
	return b
}

// putSrcBatches returns batches to the pool. REQUIRES: no goroutine uses
// them any more (the producer exited, the consumer is done).
func putSrcBatches(bs []*srcBatch) {
	for _, b := range bs {
		if cap(b.raw) > maxPooledRaw {
			continue
		}
		b.scrub()
		srcBatches.Put(b)
	}
}

// scrub drops what the batch's rows referenced (field strings, error
// reasons), so a pooled batch pins no load's text. It clears only the rows
// the producer wrote (hi): a 100-row load's batch has room for 1,024 rows,
// and clearing all of them (memclrHasPointers, ~40 KB per source column)
// cost more than the load's rows.
func (b *srcBatch) scrub() {
	nsrc := len(b.vals) / srcBatchRows
	clear(b.vals[:b.hi*nsrc])
	clear(b.reasons[:b.hi])
	b.raw, b.err, b.hi = b.raw[:0], nil, 0
}
