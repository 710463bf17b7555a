package engine

import (
	"fmt"
	"maps"
	"sync"
	"testing"
)

// TestConcurrentInsertsGroup runs small INSERTs from many sessions at once
// into a merge-on-write table with Row Binlog and before images, on a synced
// store, and checks that they shared WAL fsyncs, that each INSERT got a
// TSO of its own, and that the change records chain as a serial replay in
// TSO order does (each before image is the row the previous record of the
// key left) and rebuild the table.
func TestConcurrentInsertsGroup(t *testing.T) {
	const sessions, inserts = 8, 25
	e, err := Open(t.TempDir(), Options{TimeZone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession("")
	for _, stmt := range []string{"CREATE DATABASE m", "USE m",
		`CREATE TABLE t (k INT, v BIGINT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES (
			"binlog.enable" = "true", "binlog.format" = "ROW", "binlog.need_historical_value" = "true")`} {
		if _, err := s.Execute(stmt); err != nil {
			t.Fatal(err)
		}
	}
	before, syncsBefore := e.Writer().GroupsWritten(), e.Store().WALFsyncs()
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	for i := 0; i < sessions; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ss := e.NewSession("m")
			for j := 0; j < inserts; j++ {
				v := i*1000 + j
				stmt := fmt.Sprintf("INSERT INTO t VALUES (%d, %d), (%d, %d)", (i+j)%7, v, (i*3+j)%7, -v)
				if _, err := ss.Execute(stmt); err != nil {
					errs <- err
					return
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// INSERTs share a group (one batch) when they reach commit while one
	// is applied, and an fsync when they are applied while one runs.
	groups, syncs := e.Writer().GroupsWritten()-before, e.Store().WALFsyncs()-syncsBefore
	if syncs >= sessions*inserts {
		t.Errorf("%d INSERTs took %d WAL fsyncs: none shared one", sessions*inserts, syncs)
	}
	t.Logf("%d INSERTs in %d group writes and %d WAL fsyncs", sessions*inserts, groups, syncs)

	res, err := s.Execute(`SELECT __DORIS_BINLOG_OP__, __DORIS_BINLOG_TSO__, k, v, __BEFORE__v__ FROM binlog("table" = "t")
		ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__`)
	if err != nil {
		t.Fatal(err)
	}
	replay := map[int64]int64{}
	tsos := map[int64]bool{}
	for _, r := range res.Rows {
		op, k, v := r[0].I, r[2].I, r[3].I
		tsos[r[1].I] = true
		old, had := replay[k]
		switch {
		case op == 0 && had:
			t.Fatalf("insert record of key %d, which holds %d", k, old)
		case op == 1 && (!had || r[4].IsNull() || r[4].I != old):
			t.Fatalf("update record of key %d has before image %v, the replay holds %d (%v)", k, r[4], old, had)
		}
		replay[k] = v
	}
	if len(tsos) != sessions*inserts {
		t.Errorf("%d INSERTs wrote change records under %d TSOs", sessions*inserts, len(tsos))
	}
	table := map[int64]int64{}
	res, err = s.Execute("SELECT k, v FROM t")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Rows {
		table[r[0].I] = r[1].I
	}
	if !maps.Equal(replay, table) {
		t.Fatalf("replaying binlog() gives %v, the table is %v", replay, table)
	}
}
