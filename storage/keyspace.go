package storage

// # Key space
//
// This file is the one map of the store's keys. Every key belongs to
// exactly one prefix below; the package that owns a prefix is the only one
// that builds or parses its keys, and builds them from these constants (a
// grep for a prefix's literal finds it here only). Prefixes are listed in
// byte order, which is the order of the keys in the store.
//
//	prefix              owner                 what lives under it
//	I                   upsert/index_entries.go  I | table id | index id | column value | row key past the table
//	                                            prefix → (empty): one entry of a built INVERTED index per row of a
//	                                            Duplicate Key table
//	a/                  upsert/autoinc.go     a/ | table id | column uid → high-water mark of AUTO_INCREMENT ids
//	b                   binlog/block.go       b | table id | commit TSO | LSN → a block of a commit's Row Binlog change
//	                                            records from that LSN on (value starts 0x81), or, in stores written
//	                                            before blocks, the one record of that LSN (value starts with its op, 0–2)
//	h/                  loadhist/history.go   h/ | sequence → one finished load of the load history (JSON)
//	c/catalog           catalog/catalog.go    the whole catalog, one JSON document (databases, tables, views)
//	l/                  labels/record.go      load transactions and their labels:
//	  l/a/                                      l/a/ | txn id → (empty) the txn is PREPARE or PRECOMMITTED
//	  l/f/                                      l/f/ | finish ms | txn id → the l/n key of a finished txn
//	  l/n/                                      l/n/ | db length (uvarint) | db | label → id of the label's newest txn
//	  l/t/                                      l/t/ | txn id → the txn record (compact JSON)
//	  l/v                                       the label key layout's version
//	  l/w                                       the txn id window end
//	m/                  (see below)           maintenance marks, one key or range per owner:
//	  m/binlog_clean/   binlog/record.go        m/binlog_clean/ | table id → TSO below which cleanup removed change records
//	  m/tso/window_end  tso/tso.go              the persisted TSO window end (physical ms)
//	q/                  stream/stream.go      q/ | stream id → one Table Stream: definition and per-partition offsets (JSON)
//	r                   catalog/rowcodec.go   r | table id | key columns | version suffix → one row version
//	s/                  upsert/stage.go       s/ | txn id | row key prefix | sequence → one staged row;
//	                                            s/ | txn id | 0x00 → the staged load's options
//	v/                  upsert/version.go     v/ | table id | commit TSO → (empty) one commit that wrote rows of
//	                                            the table; its position is the __DORIS_VERSION_COL__ of its rows
//
// Table ids, txn ids, TSOs, LSNs and times are 8 bytes big endian (column
// uids 4), so numeric order is byte order. Key columns use the
// order-preserving encoding of keyenc.go. The version suffix of a Unique or
// Aggregate Key row is ^TSO, of a Duplicate Key row TSO | LSN (4 bytes).
//
// # Orderings the code relies on
//
//   - Index entries ('I') sort before every other key, so a staged load's
//     entries go to a table file of their own that overlaps none of the
//     other files of its ingestion (rows, change records). The column value
//     is self-delimiting (keyenc.go), so the entries of one value are one
//     prefix, sorted by row key.
//   - Table prefixes are prefix-free: "b" and "r" take the whole letter and
//     are followed by a fixed 8-byte table id, so the range
//     [r|id, PrefixEnd(r|id)) holds exactly the rows of table id (DROP and
//     TRUNCATE delete it with one range deletion; scans bound iterators
//     with it). No other prefix may start with 'b', 'r' or 'I'
//     ('I' is followed by the table id too).
//   - Within a table's rows, the versions of one key are adjacent and, on
//     Unique and Aggregate Key tables, newest first (^TSO): a scan keeps the
//     first version of each key and a seek finds the current row. On
//     Duplicate Key tables rows with equal key columns keep commit order.
//   - A Unique or Aggregate Key row version's key is set once: its suffix
//     is its commit's TSO, which no other commit has, and nothing rewrites
//     a version in place (a key layout change removes the table's range
//     first). A commit removes the version it supersedes with a single
//     deletion (storage.Batch.SingleDelete, upsert/merge.go), which is
//     only correct for a key set once: a second set of a version key would
//     bring the older value back after a compaction.
//   - Change records of a table sort by (TSO, LSN), so a read of the changes
//     of a TSO window is one bounded iteration and retention cleanup deletes
//     one range [b|id|0, b|id|retained). A block holds records of one
//     commit (one TSO) only, so neither splits a block.
//   - Change records ('b') sort before everything else a commit writes:
//     labels ('l'), rows ('r'), the removal of staged rows ('s'). A commit
//     batch puts the records first and the rows after them, which keeps a
//     large batch nearly sorted; a load committed by ingestion writes the
//     records to a table file of their own, the rows to another that spans
//     only the table's range (so it can land below L0), and its other
//     writes (labels, the staging range's removal, the version key) to
//     small files between and around them (upsert/stage.go refuses extra
//     writes that would fall inside the table's rows or change records).
//   - A staged row's key carries the row's key prefix ('r' ...) after the
//     txn id, so staged rows sort by table key and publishing merges them
//     with the table in one pass; the options key (0x00) sorts before them.
//   - The load history's sequence numbers grow with each load, so the
//     oldest entries are the first keys: a load drops the oldest with a
//     point deletion, and a smaller Keep at start deletes one range
//     [h/, h/|first kept).
//   - l/f sorts by finish time, so label expiry walks the oldest first.
//     Stores written before KeyLabelVersion existed hold only l/t and l/w;
//     labels builds the other indexes when it opens such a store.
const (
	// PrefixIndex holds the entries of built INVERTED indexes.
	PrefixIndex = "I"
	// PrefixAutoInc holds AUTO_INCREMENT high-water marks.
	PrefixAutoInc = "a/"
	// PrefixBinlog holds Row Binlog change records.
	PrefixBinlog = "b"
	// KeyCatalog holds the catalog document.
	KeyCatalog = "c/catalog"
	// PrefixLoadHistory holds the load history, oldest first.
	PrefixLoadHistory = "h/"
	// PrefixLabels holds every key of the labels package.
	PrefixLabels = "l/"
	// PrefixLabelActive indexes the unfinished load transactions.
	PrefixLabelActive = "l/a/"
	// PrefixLabelFinish indexes finished load transactions by finish time.
	PrefixLabelFinish = "l/f/"
	// PrefixLabelName indexes the newest load transaction of each label.
	PrefixLabelName = "l/n/"
	// PrefixLabelTxn holds the load transaction records.
	PrefixLabelTxn = "l/t/"
	// KeyLabelVersion holds the labels key layout version.
	KeyLabelVersion = "l/v"
	// KeyLabelWindow holds the load transaction id window end.
	KeyLabelWindow = "l/w"
	// PrefixMaintenance holds the maintenance marks below.
	PrefixMaintenance = "m/"
	// PrefixBinlogClean holds, per table, the TSO below which change
	// records were removed.
	PrefixBinlogClean = "m/binlog_clean/"
	// KeyTSOWindow holds the persisted TSO window end.
	KeyTSOWindow = "m/tso/window_end"
	// PrefixStream holds the Table Streams, one key each.
	PrefixStream = "q/"
	// PrefixRows holds the row versions of every table.
	PrefixRows = "r"
	// PrefixStage holds the rows staged by loads larger than memory.
	PrefixStage = "s/"
	// PrefixVersions holds, per table, the TSOs of the commits that wrote
	// it, which number the table's visible versions.
	PrefixVersions = "v/"
)
