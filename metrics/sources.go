package metrics

import (
	"maps"
	"slices"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/engine"
	"loadgw/labels"
	"loadgw/loadhist"
	"loadgw/storage"
)

// SourcesOf reads the scraped metrics from loadgw's components; txns and
// h may be nil.
func SourcesOf(e *engine.Engine, txns *labels.Store, h *loadhist.History) Sources {
	db := e.Store()
	src := Sources{
		Store: db.Stats,
		Fsync: db.WALFsync,
		LabelBytes: func() uint64 {
			n, _ := db.DiskUsage([]byte(storage.PrefixLabels), storage.PrefixEnd([]byte(storage.PrefixLabels)))
			return n
		},
		Tables:        func() []Table { return tablesOf(e) },
		BinlogWritten: func() int64 { return e.Writer().BinlogRecordsWritten() },
		Groups: func() (int64, int64) {
			w := e.Writer()
			return w.GroupsWritten(), w.CommitsGrouped()
		},
	}
	if txns != nil {
		src.Txns = txns.Unfinished
	}
	if h != nil {
		src.HistoryLoads = h.Len
	}
	return src
}

// AllTables lists every table of the catalog, by database and name.
func AllTables(cat *catalog.Catalog) []*catalog.Table {
	var out []*catalog.Table
	for _, name := range cat.Databases() {
		d, ok := cat.Database(name)
		if !ok {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(d.Tables)) {
			out = append(out, d.Tables[name])
		}
	}
	return out
}

func tablesOf(e *engine.Engine) []Table {
	db := e.Store()
	var out []Table
	for _, t := range AllTables(e.Catalog()) {
		mt := Table{DB: t.DB, Name: t.Name, Binlog: binlog.Enabled(t)}
		if mt.Binlog {
			p := binlog.Prefix(t.ID)
			end := storage.PrefixEnd(p)
			mt.BinlogBytes, _ = db.DiskUsage(p, end)
			mt.KeptRecords, _ = e.BinlogKept(t)
			if k, err := db.FirstKey(p, end); err == nil && k != nil {
				mt.OldestTSO, _ = binlog.KeyTSO(k)
			}
		}
		out = append(out, mt)
	}
	return out
}
