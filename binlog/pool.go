package binlog

import "sync"

// blockBufs holds the buffers Recorders fill blocks in: a commit's
// Recorder took a new one (40 KiB) per commit, garbage once its blocks were
// written into the commit's batch.
var blockBufs sync.Pool // *[]byte

// getBlockBuf returns an empty buffer with room for a full block.
func getBlockBuf() []byte {
	if p, _ := blockBufs.Get().(*[]byte); p != nil {
		return (*p)[:0]
	}
	return make([]byte, 0, blockBytes+blockBytes/4)
}

// Release returns r's block buffer for reuse by later commits. Call it once
// r is done: after its last Flush, whose writer kept a copy of the block
// (a batch does; a table file writer does too). A nil r does nothing; r
// may not be used afterwards.
func (r *Recorder) Release() {
	if r == nil || r.blk == nil {
		return
	}
	if cap(r.blk) <= 2*(blockBytes+blockBytes/4) {
		b := r.blk[:0]
		blockBufs.Put(&b)
	}
	r.blk = nil
}
