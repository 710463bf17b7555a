package engine

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

// countdownCtx is a context that ends after its Err was asked n times: a
// client that goes away while the statement runs.
type countdownCtx struct {
	context.Context
	left atomic.Int64
}

func (c *countdownCtx) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestCrossJoinStreams: a nested loop's output streams. A cross join of
// two 20,000-row tables has 4*10^8 rows: LIMIT stops it after a few,
// query_timeout and a client that goes away stop it while it runs.
func TestCrossJoinStreams(t *testing.T) {
	s, clk := openCancelEngine(t, 20000)
	for _, q := range []string{
		"SELECT a.k, b.k FROM t a CROSS JOIN t b LIMIT 3",
		"SELECT a.k, b.k FROM t a JOIN t b ON a.k < b.k LIMIT 3",
		"SELECT a.k, b.k FROM t a JOIN t b ON a.k = b.g OR a.g = b.k LIMIT 3",
	} {
		res, err := s.Execute(q)
		if err != nil || len(res.Rows) != 3 {
			t.Fatalf("%s: %v %v", q, res, err)
		}
	}
	// The scans of both sides take about 40 clock reads: the join's
	// matches take the rest.
	clk.ticking.Store(true)
	for _, q := range []string{
		"SELECT count(*) FROM t a CROSS JOIN t b",
		"SELECT count(*) FROM t a JOIN t b ON a.k < b.k",
	} {
		_, err := s.Execute("SET query_timeout = 300; " + q)
		if !errors.Is(err, ErrQueryTimeout) {
			t.Fatalf("%s with query_timeout 300: got %v, want %v", q, err, ErrQueryTimeout)
		}
	}
	clk.ticking.Store(false)
	ctx := &countdownCtx{Context: context.Background()}
	ctx.left.Store(1000) // about a million rows of the join
	if _, err := s.ExecuteContext(ctx, "SET query_timeout = 3600; SELECT count(*) FROM t a CROSS JOIN t b"); !errors.Is(err, ErrQueryCancelled) {
		t.Fatalf("a client gone mid-join: got %v, want %v", err, ErrQueryCancelled)
	}
}
