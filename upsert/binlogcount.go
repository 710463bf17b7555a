package upsert

// BinlogRecordsWritten counts the Row Binlog change records of the commits
// this Writer made since it was created, counted once each commit is
// durable: a failed commit counts nothing. An insert, an update (with or
// without its before image) and a delete are one record each.
func (w *Writer) BinlogRecordsWritten() int64 { return w.binlogWritten.Load() }
