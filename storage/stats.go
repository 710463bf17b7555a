package storage

import dto "github.com/prometheus/client_model/go"

// Stats is a summary of the store's own metrics for monitoring, in terms
// that do not expose Pebble to other packages.
type Stats struct {
	L0Files, L0Sublevels         int64
	Compactions, Flushes         int64 // since the store opened
	CompactionsInProgress        int64
	CompactionDebtBytes          uint64 // bytes to compact until the LSM is in shape
	MemTableBytes, MemTableCount int64
	BlockCacheBytes              int64
	BlockCacheHits               int64 // since the store opened
	BlockCacheMisses             int64
	DiskBytes                    uint64 // every file of the store: tables, WAL, manifest
	LiveTableBytes               uint64
	WALBytes                     uint64
	ReadAmp                      int64
	// FlushedBytes and CompactedBytes are the table bytes flushes and
	// compactions wrote since the store opened.
	FlushedBytes, CompactedBytes uint64
}

// Stats returns the store's current metrics. It is cheap (no I/O).
func (db *DB) Stats() Stats {
	m := db.pdb.Metrics()
	var s Stats
	s.L0Files = m.Levels[0].TablesCount
	s.L0Sublevels = int64(m.Levels[0].Sublevels)
	s.Compactions = m.Compact.Count
	s.Flushes = m.Flush.Count
	s.CompactionsInProgress = m.Compact.NumInProgress
	s.CompactionDebtBytes = m.Compact.EstimatedDebt
	s.MemTableBytes = int64(m.MemTable.Size)
	s.MemTableCount = m.MemTable.Count
	s.BlockCacheBytes = m.BlockCache.Size
	s.BlockCacheHits = m.BlockCache.Hits
	s.BlockCacheMisses = m.BlockCache.Misses
	s.DiskBytes = m.DiskSpaceUsage()
	s.LiveTableBytes = m.Table.Local.LiveSize
	s.WALBytes = m.WAL.PhysicalSize
	s.ReadAmp = int64(m.ReadAmp())
	total := m.Total()
	s.FlushedBytes, s.CompactedBytes = total.TableBytesFlushed, total.TableBytesCompacted
	return s
}

// FirstKey returns a copy of the first key in [lower, upper), or nil.
func (db *DB) FirstKey(lower, upper []byte) ([]byte, error) {
	it, err := db.NewIter(lower, upper)
	if err != nil {
		return nil, err
	}
	var k []byte
	if it.First() {
		k = append([]byte(nil), it.Key()...)
	}
	return k, it.Close()
}

// Latency is a cumulative latency histogram: Buckets maps an upper bound in
// seconds to the count of observations at or below it.
type Latency struct {
	Count   uint64
	Sum     float64 // seconds
	Buckets map[float64]uint64
}

// WALFsyncs is the number of fsyncs of the store's WAL so far (the count
// of WALFsync): below the synced commits when commits shared fsyncs.
func (db *DB) WALFsyncs() int64 {
	if l := db.WALFsync(); l != nil {
		return int64(l.Count)
	}
	return 0
}

// WALFsync returns the latency histogram of the store's WAL fsyncs, the
// synced part of every commit; nil before the store measured any.
func (db *DB) WALFsync() *Latency {
	h := db.pdb.Metrics().LogWriter.FsyncLatency
	if h == nil {
		return nil
	}
	var m dto.Metric
	if err := h.Write(&m); err != nil || m.Histogram == nil {
		return nil
	}
	// Pebble observes nanoseconds.
	l := &Latency{Count: m.Histogram.GetSampleCount(), Sum: m.Histogram.GetSampleSum() / 1e9, Buckets: map[float64]uint64{}}
	for _, b := range m.Histogram.Bucket {
		l.Buckets[b.GetUpperBound()/1e9] = b.GetCumulativeCount()
	}
	return l
}
