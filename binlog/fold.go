package binlog

import (
	"loadgw/types"
)

// maxFoldBytes bounds the memory of one statement's per-key folding
// (MIN_DELTA, snapshot reads of merge-on-write tables).
const maxFoldBytes = 1 << 30

// netChange is the first and last record of one key in a MIN_DELTA window.
type netChange struct {
	keyPart              []byte
	firstOp, lastOp      Op
	startImage, endImage []byte
	lastTSO, lastLSN     uint64
}

// minDelta folds the window's records per key into the net change between
// the key's state at the window's start and at its end.
func (c *Changes) minDelta(it *cursor, fn func(row []types.Value) (bool, error)) error {
	index := newKeyIndex()
	var changes changePages
	var mem arena
	keyAt := func(i int32) []byte { return changes.at(i).keyPart }
	held := 0 // bytes the fold keeps, roughly
	for it.Next() {
		rec := it.Record()
		ts, lsn := it.TSO(), it.LSN()
		i, seen := index.find(rec.KeyPart, keyAt)
		if !seen {
			i = changes.add(netChange{keyPart: mem.copy(rec.KeyPart), firstOp: rec.Op, startImage: mem.copy(rec.Before)})
			index.add(rec.KeyPart, i)
			if held += 2*len(rec.KeyPart) + len(rec.Before) + len(rec.After) + 96; held > maxFoldBytes {
				return errorf("MIN_DELTA INCR query folds more than %d MB of changed rows; narrow the window with startTimestamp and endTimestamp", maxFoldBytes>>20)
			}
		}
		ch := changes.at(i)
		ch.lastOp, ch.lastTSO, ch.lastLSN = rec.Op, ts, lsn
		if len(rec.After) <= cap(ch.endImage) {
			ch.endImage = append(ch.endImage[:0], rec.After...)
		} else {
			ch.endImage = mem.copy(rec.After)
		}
	}
	if err := it.Close(); err != nil {
		return err
	}
	out := make([]types.Value, c.l.width)
	for _, page := range changes.pages {
		for i := range page {
			if more, err := c.emitNet(&page[i], out, fn); err != nil || !more {
				return err
			}
		}
	}
	return nil
}

// changePages holds a fold's net changes in fixed-size pages, in the order
// their keys were first seen: growing never copies the changes already
// kept, and a change's address stays put.
type changePages struct {
	pages [][]netChange
	n     int32
}

const changePage = 4096 // net changes per page

func (p *changePages) at(i int32) *netChange { return &p.pages[i/changePage][i%changePage] }

// add appends ch and returns its position.
func (p *changePages) add(ch netChange) int32 {
	if p.n%changePage == 0 {
		p.pages = append(p.pages, make([]netChange, 0, changePage))
	}
	last := len(p.pages) - 1
	p.pages[last] = append(p.pages[last], ch)
	p.n++
	return p.n - 1
}

// emitNet passes the MIN_DELTA rows of one key's net change: an append for
// a key the window created, an update pair for one it changed, a delete
// for one it removed, nothing for one it created and removed.
func (c *Changes) emitNet(ch *netChange, out []types.Value, fn func(row []types.Value) (bool, error)) (bool, error) {
	atStart := ch.firstOp != Insert
	atEnd := ch.lastOp != Delete
	switch {
	case !atStart && atEnd:
		return c.emitImage(ch, out, IncrAppend, ch.endImage, fn)
	case atStart && atEnd:
		if more, err := c.emitImage(ch, out, IncrUpdateBefore, ch.startImage, fn); err != nil || !more {
			return more, err
		}
		return c.emitImage(ch, out, IncrUpdateAfter, ch.endImage, fn)
	case atStart:
		return c.emitImage(ch, out, IncrDelete, ch.startImage, fn)
	}
	return true, nil
}

func (c *Changes) emitImage(ch *netChange, out []types.Value, op IncrOp, image []byte, fn func(row []types.Value) (bool, error)) (bool, error) {
	l := c.l
	for i := range out {
		out[i] = types.NullValue
	}
	if err := l.decode(ch.keyPart, image); err != nil {
		return false, err
	}
	if !c.keep() {
		return true, nil
	}
	l.fill(out, true)
	l.setOp(out, int64(op))
	out[len(l.cols)+1] = types.NewInt(types.BigInt, int64(ch.lastTSO))
	out[len(l.cols)+2] = types.NewInt(types.BigInt, int64(ch.lastLSN))
	return fn(out)
}
