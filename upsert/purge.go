package upsert

// Purge deletes the stored row versions keys in one synced write, without a
// TSO and without change records: the reclamation of rows that no statement
// can show any more (rows expired by row TTL). It does not wait for
// commits: the keys are versions read from a snapshot, and a commit never
// writes a version's key again (each version's key carries its TSO), so
// deleting them cannot undo a later commit.
//
// Once a group write failed it fails with that failure, as every commit
// does.
func (w *Writer) Purge(keys [][]byte) error {
	if err := w.failed.Load(); err != nil {
		return *err
	}
	size := 12 // the batch header
	for _, k := range keys {
		size += len(k) + 6 // kind, length, key
	}
	b := w.db.NewBatchSize(size)
	defer b.Close()
	for _, k := range keys {
		b.Delete(k)
	}
	err := b.Commit()
	w.changedOutside()
	return err
}
