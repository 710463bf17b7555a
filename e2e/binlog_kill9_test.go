package e2e

import (
	"bytes"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
)

// TestBinlogKill9 sends loads from 8 clients into a merge-on-write table
// with Row Binlog and before images (change records stored in blocks),
// kills the server with SIGKILL while they run, and restarts it. The
// change records must be exactly those of the loads present: each present
// load's commit TSO holds one record per distinct key it wrote (9), no
// other TSO holds any, and MIN_DELTA from the start yields the table.
func TestBinlogKill9(t *testing.T) {
	s := startFreshServer(t)
	s.exec("information_schema", "CREATE DATABASE sl")
	s.exec("sl", "CREATE TABLE u (k INT NOT NULL, v VARCHAR(16)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 "+
		`PROPERTIES ("replication_num" = "1", "enable_unique_key_merge_on_write" = "true", `+
		`"binlog.enable" = "true", "binlog.format" = "ROW", "binlog.need_historical_value" = "true")`)

	var (
		killed atomic.Bool
		next   atomic.Int64
		mu     sync.Mutex
		acked  = map[int]bool{}
		wg     sync.WaitGroup
	)
	for c := 0; c < loaders; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !killed.Load() {
				n := int(next.Add(1) - 1)
				body, _ := uniqueLoadBody(n)
				r, err := s.tryStreamLoad("sl", "u", bytes.NewReader([]byte(body)), "column_separator:,")
				if err != nil {
					return // the server is gone
				}
				if r.Status == "Success" {
					mu.Lock()
					acked[n] = true
					mu.Unlock()
				}
			}
		}()
	}
	killWhenAcked(t, s, &mu, acked, 40, &killed)
	wg.Wait()

	s = s.restart()
	got, tso := readLoadedTable(t, s, "__DORIS_COMMIT_TSO_COL__") // compared with __DORIS_BINLOG_TSO__
	for n := range acked {
		if _, ok := tso[n]; !ok {
			t.Errorf("acknowledged load %d is missing after kill -9", n)
		}
	}
	want := map[uint64]int{}
	for _, ts := range tso {
		want[ts] += 9 // 8 shared keys (one of them twice) and the marker
	}
	_, rows := s.query("sl", `SELECT __DORIS_BINLOG_TSO__, count(*) FROM binlog("table" = "u") GROUP BY __DORIS_BINLOG_TSO__`)
	records := map[uint64]int{}
	for _, row := range rows {
		var cells [2]uint64
		if err := json.Unmarshal([]byte(row), &cells); err != nil {
			t.Fatalf("cannot decode %s: %v", row, err)
		}
		records[cells[0]] = int(cells[1])
	}
	for ts, n := range want {
		if records[ts] != n {
			t.Errorf("commit %d has %d change records, want %d", ts, records[ts], n)
		}
	}
	for ts, n := range records {
		if _, ok := want[ts]; !ok {
			t.Errorf("commit %d has %d change records but no load of it is in the table", ts, n)
		}
	}
	_, rows = s.query("sl", `SELECT count(*) FROM u@incr("incrementType" = "MIN_DELTA")`)
	if len(rows) != 1 || rows[0] != jsonInt(len(got)) {
		t.Errorf("MIN_DELTA from the start gives %v rows, the table holds %d", rows, len(got))
	}
	t.Logf("%d loads sent, %d acknowledged, %d present after kill -9, %d commits with records", next.Load(), len(acked), len(tso), len(records))
}

func jsonInt(n int) string {
	b, _ := json.Marshal([]int{n})
	return string(b)
}
