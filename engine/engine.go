// Package engine executes Doris-dialect SQL statements against loadgw's
// catalog and store: it owns the store, the catalog, the TSO oracle and the
// writer, and hands out sessions that run statements with their own session
// variables.
package engine

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"loadgw/catalog"
	"loadgw/clock"
	"loadgw/labels"
	"loadgw/storage"
	"loadgw/stream"
	"loadgw/tso"
	"loadgw/types"
	"loadgw/upsert"
)

// Options configures an Engine. The zero value is the default.
type Options struct {
	// Clock is the time source of TSOs and now(). The default value is the
	// system clock.
	Clock clock.Clock
	// Storage configures the store.
	Storage storage.Options
	// TimeZone is the default session time_zone. The default value is the
	// zone of the process (TZ), as Doris defaults to the system zone.
	TimeZone string
	// EnableFeatureBinlog gates Row Binlog and the binlog.* properties, as the
	// Doris FE option enable_feature_binlog. The default value is true.
	DisableFeatureBinlog bool
	// QueryMemoryBytes bounds the rows each sort, hash aggregation and
	// window operator of a query holds in memory; past it they spill to
	// files in the data directory's tmp-query/ (see package spill). A
	// session's exec_mem_limit lowers it. Hash join build sides, DISTINCT
	// and count(DISTINCT)/group_concat states are not bounded by it. The
	// default value is 256 MiB.
	QueryMemoryBytes int64
	// HTTPPort and QueryPort are the ports SHOW FRONTENDS, SHOW BACKENDS
	// and backends() show for this node. The default values are Doris's
	// 8030 and 9030.
	HTTPPort, QueryPort int
}

// Engine is an open loadgw database. It is safe for concurrent use.
type Engine struct {
	opts    Options
	db      *storage.DB
	cat     *catalog.Catalog
	oracle  *tso.Oracle
	writer  *upsert.Writer
	streams *stream.Manager
	clock   clock.Clock
	codecMu sync.Mutex
	codecs  map[*catalog.Table]*catalog.RowCodec
	globals globalVars
	txns    txnStore
	ops     opsHooks // observe.go
	spill   string   // directory of query spill files
	// spilled counts the spill files queries wrote (SpillFiles).
	spilled atomic.Int64
	dir     string    // the data directory
	started time.Time // when Open ran: the node's start time
	// alterJobs lists the column ALTERs for SHOW ALTER TABLE COLUMN.
	alterJobs alterJobLog
	// keys keeps loads and queries off replaced key layouts (key_layout.go).
	keys keyLayoutGuard
	// alterWait holds the schema change jobs waiting for loads, watched
	// the loads' label store (WatchLoads).
	alterWait alterWaiters
	watched   atomic.Pointer[labels.Store]

	// filesRows caches each table's rows counted in the table files, by
	// table ID (index_rows.go).
	filesRows sync.Map
}

// Open opens the engine on the store in dir.
func Open(dir string, opts Options) (*Engine, error) {
	if opts.Clock == nil {
		opts.Clock = clock.System{}
	}
	if opts.TimeZone == "" {
		opts.TimeZone = time.Local.String()
		if opts.TimeZone == "Local" {
			opts.TimeZone = "UTC"
		}
	}
	if opts.QueryMemoryBytes <= 0 {
		opts.QueryMemoryBytes = DefaultQueryMemoryBytes
	}
	if opts.Storage.Clock == nil {
		opts.Storage.Clock = opts.Clock // one clock for the engine and its store
	}
	db, err := storage.Open(dir, opts.Storage)
	if err != nil {
		return nil, err
	}
	spillDir, err := clearSpillDir(dir)
	if err != nil {
		db.Close()
		return nil, err
	}
	cat, err := catalog.Open(db)
	if err != nil {
		db.Close()
		return nil, err
	}
	oracle, err := tso.Open(db, opts.Clock, tso.Options{})
	if err != nil {
		db.Close()
		return nil, err
	}
	streams, err := stream.OpenManager(db)
	if err != nil {
		db.Close()
		return nil, err
	}
	e := &Engine{
		opts:    opts,
		db:      db,
		cat:     cat,
		oracle:  oracle,
		writer:  upsert.NewWriter(db, oracle),
		streams: streams,
		clock:   opts.Clock,
		codecs:  map[*catalog.Table]*catalog.RowCodec{},
		spill:   spillDir,
		dir:     dir,
		started: opts.Clock.Now(),
	}
	e.writer.SetLayoutCheck(e.checkKeyLayout)
	return e, nil
}

// AutoIncValue hands out a fresh value of AUTO_INCREMENT column col of t.
func (e *Engine) AutoIncValue(t *catalog.Table, col int) (types.Value, error) {
	return e.writer.AutoIncValue(t, col)
}

// Close closes the store.
func (e *Engine) Close() error {
	e.alterWait.close()
	if err := e.db.Close(); err != nil {
		return fmt.Errorf("cannot close store: %w", err)
	}
	return nil
}

// Catalog is the engine's catalog.
func (e *Engine) Catalog() *catalog.Catalog { return e.cat }

// Oracle is the engine's TSO oracle.
func (e *Engine) Oracle() *tso.Oracle { return e.oracle }

// Writer is the engine's transaction writer.
func (e *Engine) Writer() *upsert.Writer { return e.writer }

// Clock is the engine's time source.
func (e *Engine) Clock() clock.Clock { return e.clock }

// TimeZone is the default session time zone name.
func (e *Engine) TimeZone() string { return e.opts.TimeZone }

// Store is the engine's store.
func (e *Engine) Store() *storage.DB { return e.db }

// Codec returns the (cached) row codec of a table definition.
func (e *Engine) Codec(t *catalog.Table) *catalog.RowCodec {
	e.codecMu.Lock()
	defer e.codecMu.Unlock()
	rc, ok := e.codecs[t]
	if !ok {
		if len(e.codecs) > 1024 {
			clear(e.codecs)
		}
		rc = catalog.NewRowCodec(t)
		e.codecs[t] = rc
	}
	return rc
}
