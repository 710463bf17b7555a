package metrics

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"loadgw/engine"
	"loadgw/storage"
)

// Table is what the metrics read of one table at scrape time.
type Table struct {
	DB, Name string
	// Binlog reports a Row Binlog table; BinlogBytes estimates the bytes
	// of its kept change records on disk and OldestTSO is the commit TSO
	// of the oldest one kept (0 when none).
	Binlog      bool
	BinlogBytes uint64
	OldestTSO   uint64
	// KeptRecords counts the change records the table keeps on disk, at
	// most engine.MaxKeptCount (at it: at least that many).
	KeptRecords int
}

// Sources supplies the values read when /metrics is scraped. A nil field
// leaves its metrics out.
type Sources struct {
	// Store gives the store's own metrics.
	Store func() storage.Stats
	// Fsync gives the WAL fsync latency histogram.
	Fsync func() *storage.Latency
	// Txns counts the load transactions that have not finished.
	Txns func() (prepare, precommitted int)
	// LabelBytes estimates the bytes of the label store on disk.
	LabelBytes func() uint64
	// Tables lists the tables.
	Tables func() []Table
	// BinlogWritten counts the Row Binlog change records of durable
	// commits since start.
	BinlogWritten func() int64
	// Groups gives the group writes of the commit pipeline and the
	// commits they carried, since start.
	Groups func() (writes, commits int64)
	// HistoryLoads counts the loads held by the load history.
	HistoryLoads func() int
}

// scraped is the collector of the values of Sources.
type scraped struct{ src Sources }

var (
	descTxnNum       = prometheus.NewDesc("doris_fe_txn_num", "Load transactions that have not finished (PREPARE or PRECOMMITTED).", nil, nil)
	descTxnStatus    = prometheus.NewDesc("doris_fe_txn_status", "Load transactions that have not finished, by status: prepare, precommitted.", []string{"type"}, nil)
	descLabelBytes   = prometheus.NewDesc("loadgw_label_store_bytes", "Estimated bytes on disk of the label and transaction records.", nil, nil)
	descHistory      = prometheus.NewDesc("loadgw_load_history_loads", "Loads held by the load history (SHOW STREAM LOAD).", nil, nil)
	descTables       = prometheus.NewDesc("loadgw_tables", "Tables in the catalog.", nil, nil)
	descBinlogBytes  = prometheus.NewDesc("loadgw_binlog_kept_bytes", "Estimated bytes on disk of the kept Row Binlog change records of a table.", []string{"db", "table"}, nil)
	descBinlogWrote  = prometheus.NewDesc("loadgw_binlog_records_written_total", "Row Binlog change records of durable commits (stream loads, INSERT, UPDATE, DELETE, 2PC commits): one per inserted, updated or deleted row of a Row Binlog table.", nil, nil)
	descBinlogKept   = prometheus.NewDesc("loadgw_binlog_kept_records", fmt.Sprintf("Row Binlog change records a table keeps on disk, counted at scrape time up to %[1]d per table (at %[1]d: at least that many); includes records past binlog.ttl_seconds until cleanup removes them.", engine.MaxKeptCount), []string{"db", "table"}, nil)
	descBinlogOldest = prometheus.NewDesc("loadgw_binlog_oldest_kept_tso", "Commit TSO of the oldest kept change record of a Row Binlog table (0: none).", []string{"db", "table"}, nil)
	descGroupWrites  = prometheus.NewDesc("loadgw_commit_group_writes_total", "Group writes of the commit pipeline (one Pebble batch and WAL record each) since start; a group is applied while the one before it waits for its fsync, and one WAL fsync often covers several (loadgw_wal_fsync_duration_seconds_count).", nil, nil)
	descGroupCommits = prometheus.NewDesc("loadgw_commit_group_commits_total", "Commits (stream loads, INSERT, UPDATE, DELETE, 2PC commits) carried by those group writes since start; divided by loadgw_commit_group_writes_total it is the mean group size.", nil, nil)
	descFsync        = prometheus.NewDesc("loadgw_wal_fsync_duration_seconds", "Latency of the store's WAL fsyncs: the synced step of every commit.", nil, nil)
	descStore        = map[string]*prometheus.Desc{}
)

// storeGauge describes one metric of storage.Stats.
type storeGauge struct {
	name, help string
	counter    bool
	value      func(s *storage.Stats) float64
}

var storeGauges = []storeGauge{
	{"loadgw_pebble_l0_files", "Table files in level 0 of the store.", false, func(s *storage.Stats) float64 { return float64(s.L0Files) }},
	{"loadgw_pebble_l0_sublevels", "Sublevels of level 0 (read amplification of L0).", false, func(s *storage.Stats) float64 { return float64(s.L0Sublevels) }},
	{"loadgw_pebble_read_amplification", "Read amplification of the store.", false, func(s *storage.Stats) float64 { return float64(s.ReadAmp) }},
	{"loadgw_pebble_compactions_total", "Compactions since the store opened.", true, func(s *storage.Stats) float64 { return float64(s.Compactions) }},
	{"loadgw_pebble_flushes_total", "Memtable flushes since the store opened.", true, func(s *storage.Stats) float64 { return float64(s.Flushes) }},
	{"loadgw_pebble_compactions_in_progress", "Compactions running.", false, func(s *storage.Stats) float64 { return float64(s.CompactionsInProgress) }},
	{"loadgw_pebble_compaction_debt_bytes", "Estimated bytes to compact until the store is in shape (flush/compaction debt).", false, func(s *storage.Stats) float64 { return float64(s.CompactionDebtBytes) }},
	{"loadgw_pebble_memtable_bytes", "Bytes of the memtables.", false, func(s *storage.Stats) float64 { return float64(s.MemTableBytes) }},
	{"loadgw_pebble_memtables", "Memtables (the mutable one and those waiting to flush).", false, func(s *storage.Stats) float64 { return float64(s.MemTableCount) }},
	{"loadgw_pebble_block_cache_bytes", "Bytes in the block cache.", false, func(s *storage.Stats) float64 { return float64(s.BlockCacheBytes) }},
	{"loadgw_pebble_block_cache_hits_total", "Block cache hits since the store opened.", true, func(s *storage.Stats) float64 { return float64(s.BlockCacheHits) }},
	{"loadgw_pebble_block_cache_misses_total", "Block cache misses since the store opened.", true, func(s *storage.Stats) float64 { return float64(s.BlockCacheMisses) }},
	{"loadgw_pebble_block_cache_hit_ratio", "Block cache hits / (hits + misses) since the store opened.", false, func(s *storage.Stats) float64 {
		if t := s.BlockCacheHits + s.BlockCacheMisses; t > 0 {
			return float64(s.BlockCacheHits) / float64(t)
		}
		return 0
	}},
	{"loadgw_pebble_disk_bytes", "Bytes of every file of the store on disk (tables, WAL, manifest).", false, func(s *storage.Stats) float64 { return float64(s.DiskBytes) }},
	{"loadgw_pebble_live_table_bytes", "Bytes of the live table files.", false, func(s *storage.Stats) float64 { return float64(s.LiveTableBytes) }},
	{"loadgw_pebble_wal_bytes", "Bytes of the write-ahead log files.", false, func(s *storage.Stats) float64 { return float64(s.WALBytes) }},
}

func init() {
	for _, g := range storeGauges {
		descStore[g.name] = prometheus.NewDesc(g.name, g.help, nil, nil)
	}
}

func (c *scraped) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descFsync, descTxnNum, descTxnStatus, descLabelBytes, descHistory, descTables, descBinlogBytes, descBinlogKept, descBinlogOldest, descBinlogWrote} {
		ch <- d
	}
	for _, d := range descStore {
		ch <- d
	}
}

func (c *scraped) Collect(ch chan<- prometheus.Metric) {
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	if c.src.Store != nil {
		s := c.src.Store()
		for _, g := range storeGauges {
			t := prometheus.GaugeValue
			if g.counter {
				t = prometheus.CounterValue
			}
			ch <- prometheus.MustNewConstMetric(descStore[g.name], t, g.value(&s))
		}
	}
	if c.src.Fsync != nil {
		if l := c.src.Fsync(); l != nil {
			ch <- prometheus.MustNewConstHistogram(descFsync, l.Count, l.Sum, l.Buckets)
		}
	}
	if c.src.Txns != nil {
		prep, pre := c.src.Txns()
		gauge(descTxnNum, float64(prep+pre))
		gauge(descTxnStatus, float64(prep), "prepare")
		gauge(descTxnStatus, float64(pre), "precommitted")
	}
	if c.src.LabelBytes != nil {
		gauge(descLabelBytes, float64(c.src.LabelBytes()))
	}
	if c.src.BinlogWritten != nil {
		ch <- prometheus.MustNewConstMetric(descBinlogWrote, prometheus.CounterValue, float64(c.src.BinlogWritten()))
	}
	if c.src.Groups != nil {
		writes, commits := c.src.Groups()
		ch <- prometheus.MustNewConstMetric(descGroupWrites, prometheus.CounterValue, float64(writes))
		ch <- prometheus.MustNewConstMetric(descGroupCommits, prometheus.CounterValue, float64(commits))
	}
	if c.src.HistoryLoads != nil {
		gauge(descHistory, float64(c.src.HistoryLoads()))
	}
	if c.src.Tables != nil {
		tables := c.src.Tables()
		gauge(descTables, float64(len(tables)))
		for _, t := range tables {
			if t.Binlog {
				gauge(descBinlogBytes, float64(t.BinlogBytes), t.DB, t.Name)
				gauge(descBinlogKept, float64(t.KeptRecords), t.DB, t.Name)
				gauge(descBinlogOldest, float64(t.OldestTSO), t.DB, t.Name)
			}
		}
	}
}
