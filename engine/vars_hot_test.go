package engine

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"loadgw/sql"
	"loadgw/storage"
)

// TestHotVarsFollowSet: the variables a session keeps parsed for its
// queries (vars_hot.go) follow every SET of the session and every SET
// GLOBAL of another session, read by one parse tree run again as a
// prepared statement runs: hidden columns, the delete sign, the default
// limit and the statement deadline.
func TestHotVarsFollowSet(t *testing.T) {
	e, err := Open(t.TempDir(), Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s, other := e.NewSession(""), e.NewSession("")
	exec := func(s *Session, q string) {
		t.Helper()
		if _, err := s.Execute(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, q := range []string{
		"CREATE DATABASE p", "USE p",
		"CREATE TABLE u (k BIGINT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
		"INSERT INTO u VALUES (0, 10), (1, 11), (2, 12)",
		"DELETE FROM u WHERE k = 2",
	} {
		exec(s, q)
	}
	point := parsed(t, "SELECT * FROM u WHERE k = 2")
	all := parsed(t, "SELECT k FROM u")
	run := func(stmts []sql.Statement) *Result {
		t.Helper()
		res, err := s.ExecuteParsed(stmts, "")
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// shape is the point lookup of the deleted key's (rows, columns).
	shape := func() [2]int {
		res := run(point)
		return [2]int{len(res.Rows), len(res.Columns)}
	}
	check := func(what string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s: got %v, want %v", what, got, want)
		}
	}
	check("deleted key", shape(), [2]int{0, 2})
	check("rows", len(run(all).Rows), 2)
	check("deadline", s.hot().timeout, 900*time.Second)

	exec(s, "SET skip_delete_sign = true")
	check("deleted key, skip_delete_sign", shape(), [2]int{1, 2})
	exec(s, "SET skip_delete_sign = false")
	check("deleted key again", shape(), [2]int{0, 2})
	exec(s, "SET show_hidden_columns = true")
	if got := shape(); got[0] != 1 || got[1] <= 2 {
		t.Errorf("deleted key, show_hidden_columns: got %v, want the row with hidden columns", got)
	}
	exec(s, "SET show_hidden_columns = false")
	check("deleted key, hidden again", shape(), [2]int{0, 2})
	exec(s, "SET sql_select_limit = 1")
	check("rows, sql_select_limit", len(run(all).Rows), 1)
	exec(s, "SET sql_select_limit = DEFAULT")
	check("rows, limit default", len(run(all).Rows), 2)
	exec(s, "SET query_timeout = 7")
	check("deadline, query_timeout", s.hot().timeout, 7*time.Second)

	// Another session's SET GLOBAL of a variable s never set: s sees it.
	exec(other, "SET GLOBAL skip_storage_engine_merge = true")
	if got := shape(); got[0] != 1 || got[1] <= 2 {
		t.Errorf("deleted key, global skip_storage_engine_merge: got %v, want the row with hidden columns", got)
	}
	exec(other, "SET GLOBAL skip_storage_engine_merge = false")
	check("deleted key, global reset", shape(), [2]int{0, 2})
	// s set sql_select_limit itself (to DEFAULT); a new session did not.
	s = e.NewSession("p")
	check("fresh session rows", len(run(all).Rows), 2)
	exec(other, "SET GLOBAL sql_select_limit = 1")
	check("fresh session rows, global limit", len(run(all).Rows), 1)
}

// parsed parses one statement; a test reruns it as a prepared statement.
func parsed(t *testing.T, q string) []sql.Statement {
	t.Helper()
	stmts, err := sql.Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	return stmts
}

// TestHotVarsSharedByWorkers: a statement's scan workers read the session's
// hot variables on their own goroutines (newScanner's ShowHidden,
// readsDeleted) while another session's SET GLOBAL makes them stale: every
// worker still reads the session's values, never a half-read set (hot()
// rebuilt them in place, valid before its values were read), and without
// a data race (go test -race).
func TestHotVarsSharedByWorkers(t *testing.T) {
	e, _ := openTestEngine(t)
	s, other := e.NewSession(""), e.NewSession("")
	for _, q := range []string{"SET show_hidden_columns = true", "SET query_timeout = 77"} {
		if _, err := s.Execute(q); err != nil {
			t.Fatal(err)
		}
	}
	const workers, reads = 3, 20000
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() { // stale hot variables, again and again
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := other.Execute(fmt.Sprintf("SET GLOBAL default_order_by_limit = %d", 1000+i%2)); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	var bad atomic.Int64
	var readers sync.WaitGroup
	for range workers {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for range reads {
				if !s.ShowHidden() || !s.readsDeleted() || s.hot().timeout != 77*time.Second {
					bad.Add(1)
				}
			}
		}()
	}
	readers.Wait()
	close(stop)
	wg.Wait()
	if n := bad.Load(); n > 0 {
		t.Errorf("%d of %d reads saw other values than the session's", n, workers*reads)
	}
}
