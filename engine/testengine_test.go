package engine

import (
	"testing"
	"time"

	"loadgw/clock"
	"loadgw/storage"
)

// openTestEngine opens an engine on a new temporary directory with a manual
// clock at 2026-11-29 10:00 UTC and no syncs; it is closed when the test
// ends.
func openTestEngine(t *testing.T) (*Engine, *clock.Manual) {
	t.Helper()
	clk := clock.NewManual(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC))
	e, err := Open(t.TempDir(), Options{Clock: clk, TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, clk
}

// openScriptEngine opens the engine of a datadriven script on dir, which
// the script's restart command reopens: the manual clock, UTC, no sync and
// a small block cache.
func openScriptEngine(t *testing.T, dir string, clk *clock.Manual) *Engine {
	t.Helper()
	e, err := Open(dir, Options{Clock: clk, TimeZone: "UTC", Storage: storage.Options{NoSync: true, CacheBytes: 8 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}
