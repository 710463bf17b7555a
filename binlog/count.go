package binlog

// Records is how many change records r has written (0 for a nil r).
// REQUIRES: r flushed (Flush) since its last record.
func (r *Recorder) Records() int64 {
	if r == nil {
		return 0
	}
	if len(r.blk) > 0 {
		panic("BUG: binlog recorder's records counted before Flush")
	}
	return int64(r.lsn)
}

// CountRecords counts the change records of table tableID committed at
// TSOs in [from, to), stopping once it reaches limit (limit <= 0: no
// limit; the count returned may then pass limit by less than a block). It
// reads every key of the range up to the limit and each block's header.
func CountRecords(r Reader, tableID int64, from, to uint64, limit int) (int, error) {
	it, err := r.NewIter(Key(nil, tableID, from, 0), Key(nil, tableID, to, 0))
	if err != nil {
		return 0, err
	}
	n := 0
	for ok := it.First(); ok && (limit <= 0 || n < limit); ok = it.Next() {
		k, err := valueRecords(it.Value())
		if err != nil {
			it.Close()
			return 0, err
		}
		n += k
	}
	return n, it.Close()
}
