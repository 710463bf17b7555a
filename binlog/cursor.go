package binlog

import "loadgw/storage"

// Pos is the position of one change record: its commit TSO and LSN.
type Pos struct{ TSO, LSN uint64 }

func (p Pos) less(q Pos) bool { return p.TSO < q.TSO || p.TSO == q.TSO && p.LSN < q.LSN }

// cursor walks a table's change records from position from (included) to
// to (excluded) one record at a time, in (TSO, LSN) order, opening blocks
// (see block.go). It is the one reader of the stored forms.
type cursor struct {
	it       *storage.Iter
	from, to Pos
	seek     []byte // where the first Next starts; nil: the iterator's first key
	started  bool
	done     bool
	vals     values
	ts       uint64
	lsn      uint64
	rec      Record
	err      error
}

// openCursor opens a cursor over table tableID's records in [from, to).
func openCursor(r Reader, tableID int64, from, to Pos) (*cursor, error) {
	if !from.less(to) {
		return &cursor{done: true}, nil
	}
	// A block keyed below from may hold records at or after it (same
	// TSO, a smaller key LSN): the range starts at from's TSO and the
	// first Next steps back to such a block.
	it, err := r.NewIter(Key(nil, tableID, from.TSO, 0), Key(nil, tableID, to.TSO, to.LSN))
	if err != nil {
		return nil, err
	}
	c := &cursor{it: it, from: from, to: to}
	if from.LSN > 0 {
		c.seek = Key(nil, tableID, from.TSO, from.LSN)
	}
	return c, nil
}

// Next moves to the next record; false at the end or on an error (see
// Err).
func (c *cursor) Next() bool {
	for {
		if c.vals.left > 0 {
			lsn, rec, err := c.vals.read()
			if err != nil {
				c.err, c.done = err, true
				return false
			}
			p := Pos{c.ts, lsn}
			if p.less(c.from) {
				continue
			}
			if !p.less(c.to) {
				c.done = true
				return false
			}
			c.lsn, c.rec = lsn, rec
			return true
		}
		if c.done || c.it == nil || !c.advance() {
			return false
		}
		ts, keyLSN := KeyTSO(c.it.Key())
		c.ts = ts
		if err := c.vals.reset(keyLSN, c.it.Value()); err != nil {
			c.err, c.done = err, true
			return false
		}
	}
}

// advance positions the iterator at the next key.
func (c *cursor) advance() bool {
	if c.started {
		return c.it.Next()
	}
	c.started = true
	if c.seek == nil {
		return c.it.First()
	}
	if c.it.SeekLT(c.seek) {
		return true
	}
	return c.it.SeekGE(c.seek)
}

// TSO, LSN and Record are the current record's; the Record's slices are
// valid until the next call of Next.
func (c *cursor) TSO() uint64    { return c.ts }
func (c *cursor) LSN() uint64    { return c.lsn }
func (c *cursor) Record() Record { return c.rec }

// Err is the error that ended the walk, if any.
func (c *cursor) Err() error { return c.err }

// Close releases the iterator and returns the walk's error, if any.
func (c *cursor) Close() error {
	if c.it == nil {
		return c.err
	}
	err := c.it.Close()
	c.it = nil
	if c.err != nil {
		return c.err
	}
	return err
}
