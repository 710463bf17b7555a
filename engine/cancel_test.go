package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"loadgw/clock"
	"loadgw/storage"
)

// tickingClock is a manual clock that, while ticking, moves one second
// forward on every read: a statement that reads it often runs "long".
type tickingClock struct {
	*clock.Manual
	ticking atomic.Bool
}

func (c *tickingClock) Now() time.Time {
	if c.ticking.Load() {
		c.Manual.Advance(time.Second)
	}
	return c.Manual.Now()
}

func openCancelEngine(t *testing.T, rows int) (*Session, *tickingClock) {
	t.Helper()
	clk := &tickingClock{Manual: clock.NewManual(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC))}
	e, err := Open(t.TempDir(), Options{Clock: clk, TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	s := e.NewSession("")
	var vals []string
	for i := 0; i < rows; i++ {
		vals = append(vals, fmt.Sprintf("(%d, %d)", i, i%7))
	}
	if _, err := s.Execute("CREATE DATABASE d; USE d; CREATE TABLE t (k INT, g INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1; INSERT INTO t VALUES " + strings.Join(vals, ",")); err != nil {
		t.Fatal(err)
	}
	return s, clk
}

// TestQueryTimeout: a query that reads past query_timeout stops with
// Doris's text; one that finishes in time, or runs without a timeout
// reached, answers.
func TestQueryTimeout(t *testing.T) {
	s, clk := openCancelEngine(t, 20000)
	clk.ticking.Store(true)
	// Every 1024th row reads the clock: 20000 rows take about 20 seconds.
	for _, q := range []string{
		"SELECT count(*) FROM t",
		"SELECT g, sum(k) FROM t GROUP BY g",
		"SELECT k FROM t ORDER BY k DESC LIMIT 1",
		"SELECT a.k FROM t a JOIN t b ON a.g = b.g WHERE a.k < 3",
	} {
		_, err := s.Execute("SET query_timeout = 5; " + q)
		if !errors.Is(err, ErrQueryTimeout) {
			t.Fatalf("%s with query_timeout 5: got %v, want %v", q, err, ErrQueryTimeout)
		}
	}
	res, err := s.Execute("SET query_timeout = 3600; SELECT count(*) FROM t")
	if err != nil || res.Rows[0][0].I != 20000 {
		t.Fatalf("query_timeout 3600: %v %v", res, err)
	}
	// g is not a key column: the filter cannot narrow the key range.
	res, err = s.Execute("SET query_timeout = 1; SELECT count(*) FROM t WHERE g > 100")
	if err == nil {
		t.Fatalf("a full scan with a filter must time out too, got %v", res.Rows)
	}
}

// TestQueryCancelledByClient: a query whose request context ends stops.
func TestQueryCancelledByClient(t *testing.T) {
	s, _ := openCancelEngine(t, 5000)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, q := range []string{
		"SELECT count(*) FROM t",
		"SELECT k, row_number() OVER (PARTITION BY g ORDER BY k) FROM t",
	} {
		if _, err := s.ExecuteContext(ctx, q); !errors.Is(err, ErrQueryCancelled) {
			t.Fatalf("%s: got %v, want %v", q, err, ErrQueryCancelled)
		}
	}
	res, err := s.ExecuteContext(context.Background(), "SELECT count(*) FROM t")
	if err != nil || res.Rows[0][0].I != 5000 {
		t.Fatalf("after a cancelled request the session still answers: %v %v", res, err)
	}
}
