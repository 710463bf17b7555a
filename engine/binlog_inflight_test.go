package engine

import (
	"testing"
	"time"

	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// TestIncrWaitsForWritingCommit holds a commit after it took its TSO and
// reads a window that contains that TSO: the read must wait for the commit
// and return its change, or a consumer that moves on to the next window
// would never see it.
func TestIncrWaitsForWritingCommit(t *testing.T) {
	e, clk := openTestEngine(t)
	s := e.NewSession("")
	if _, err := s.Execute(`CREATE DATABASE d; USE d; CREATE TABLE t (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
		PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW")`); err != nil {
		t.Fatal(err)
	}
	tbl, err := e.Catalog().Table("d", "t")
	if err != nil {
		t.Fatal(err)
	}
	row := make([]types.Value, len(tbl.Columns))
	set := make([]bool, len(tbl.Columns))
	row[0], row[1], set[0], set[1] = types.NewInt(types.Int, 1), types.NewInt(types.Int, 1), true, true
	if err := tbl.FillDefaults(row, set, clk.Now(), time.UTC); err != nil {
		t.Fatal(err)
	}
	writing, release, done := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		_, err := e.Writer().Commit(upsert.Rows{Codec: e.Codec(tbl), Rows: [][]types.Value{row},
			Extra: func(*storage.Batch, uint64) error { close(writing); <-release; return nil }})
		done <- err
	}()
	<-writing // the commit holds TSO 10:00:00 and has not written yet
	clk.Advance(5 * time.Second)
	go func() {
		time.Sleep(50 * time.Millisecond)
		close(release)
	}()
	res, err := s.Execute(`SELECT count(*) FROM t@incr("incrementType" = "DETAIL", "endTimestamp" = "2026-11-29 10:00:03")`)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := res.Rows[0][0].I; got != 1 {
		t.Fatalf("the window before 10:00:03 read %d changes while a 10:00:00 commit was writing, want 1", got)
	}
}
