package tso

import (
	"testing"
	"time"

	"loadgw/clock"
	"loadgw/storage"
)

func openOracle(t *testing.T, dir string, c clock.Clock) (*Oracle, *storage.DB) {
	t.Helper()
	db, err := storage.Open(dir, storage.Options{NoSync: true, CacheBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	o, err := Open(db, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return o, db
}

func TestMonotonicAcrossClockStepBackAndRestart(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	c := clock.NewManual(start)
	o, db := openOracle(t, dir, c)
	var last uint64
	next := func() uint64 {
		t.Helper()
		v, err := o.Next()
		if err != nil {
			t.Fatal(err)
		}
		if v <= last {
			t.Fatalf("TSO %d not greater than previous %d", v, last)
		}
		last = v
		return v
	}
	first := next()
	if Physical(first) != start.UnixMilli() || Logical(first) != 0 {
		t.Fatalf("first TSO = %d/%d, want %d/0", Physical(first), Logical(first), start.UnixMilli())
	}
	if second := next(); Logical(second) != 1 || Physical(second) != start.UnixMilli() {
		t.Fatalf("second TSO logical = %d, want 1", Logical(second))
	}
	c.Advance(-time.Hour) // wall clock steps back
	for i := 0; i < 10; i++ {
		next()
	}
	c.Advance(2 * time.Hour)
	next()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// Restart with the clock far behind: still strictly greater.
	c.Set(start.Add(-24 * time.Hour))
	o, db = openOracle(t, dir, c)
	defer db.Close()
	if v := next(); Physical(v) < start.Add(time.Hour).UnixMilli() {
		t.Fatalf("after restart physical %d went back", Physical(v))
	}
}

func TestLogicalOverflowMovesPhysical(t *testing.T) {
	c := clock.NewManual(time.Unix(1000, 0))
	o, db := openOracle(t, t.TempDir(), c)
	defer db.Close()
	var last uint64
	for i := 0; i < maxLogical+5; i++ {
		v, err := o.Next()
		if err != nil {
			t.Fatal(err)
		}
		if v <= last {
			t.Fatalf("not increasing at %d", i)
		}
		last = v
	}
	if Physical(last) != 1000*1000+1 {
		t.Fatalf("physical = %d, want %d", Physical(last), 1000*1000+1)
	}
}

func TestComposeMatchesDorisLayout(t *testing.T) {
	// 2026-01-01T00:00:00Z, logical 5
	v := Compose(1767225600000, 5)
	if v != 1767225600000<<18|5 {
		t.Fatal(v)
	}
	if Physical(0) != 0 {
		t.Fatal("Physical(0) must be 0")
	}
}

// TestCurrentAfterRestartIsBelowNext checks that the status reported after a
// restart, before any commit, is below the first new TSO.
func TestCurrentAfterRestartIsBelowNext(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(time.Unix(5000, 0))
	o, db := openOracle(t, dir, c)
	last, err := o.Next()
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	o, db = openOracle(t, dir, c)
	defer db.Close()
	floor := o.Current().CurrentTSO
	if floor <= last {
		t.Fatalf("restart floor %d not above last TSO %d", floor, last)
	}
	next, err := o.Next()
	if err != nil {
		t.Fatal(err)
	}
	if next <= floor {
		t.Fatalf("first TSO after restart %d not above reported floor %d", next, floor)
	}
}
