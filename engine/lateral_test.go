package engine

import (
	"errors"
	"testing"
)

// TestLateralViewTimeout: one input row that generates many rows is still
// stopped by query_timeout (the lateral view checks it per generated row).
func TestLateralViewTimeout(t *testing.T) {
	s, clk := openCancelEngine(t, 1)
	clk.ticking.Store(true)
	_, err := s.Execute("SET query_timeout = 5; SELECT n FROM (SELECT 1) x LATERAL VIEW explode_numbers(2000000) g AS n WHERE n < 0")
	if !errors.Is(err, ErrQueryTimeout) {
		t.Fatalf("got %v, want %v", err, ErrQueryTimeout)
	}
	res, err := s.Execute("SET query_timeout = 3600; SELECT count(*) FROM (SELECT 1) x LATERAL VIEW explode_numbers(20000) g AS n")
	if err != nil || res.Rows[0][0].I != 20000 {
		t.Fatalf("query_timeout 3600: %v %v", res, err)
	}
}
