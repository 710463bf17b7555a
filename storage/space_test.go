package storage

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"loadgw/clock"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// TestCheckFreeSpaceCached: between statfs calls CheckFreeSpace takes the
// last answer less what the store wrote since; it asks again once the
// answer is spaceMaxAge old or spaceMaxWritten bytes were written, and
// before it refuses a write.
func TestCheckFreeSpaceCached(t *testing.T) {
	const mib = 1 << 20
	f := NewFaults()
	clk := clock.NewManual(time.Unix(1_000_000, 0))
	db, err := Open("db", Options{FS: f.FS(), OnFatal: f.OnFatal, CacheBytes: 1 << 20, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The volume changes behind the store's back (another process), not
	// through Faults.SetDiskUsage, which makes the figure stale at once.
	behind := func(free uint64) {
		f.mem.TestingSetDiskUsage(vfs.DiskUsage{AvailBytes: free, TotalBytes: 1 << 30, UsedBytes: 1<<30 - free})
	}
	calls := func() int64 {
		db.space.mu.Lock()
		defer db.space.mu.Unlock()
		return db.space.statfs
	}
	check := func(what string, incoming int64, ok bool, wantCalls int64) {
		t.Helper()
		err := db.CheckFreeSpace(incoming)
		if (err == nil) != ok || (err != nil && !errors.Is(err, ErrDiskFull)) {
			t.Fatalf("%s: CheckFreeSpace(%d) = %v, want ok %v", what, incoming, err, ok)
		}
		if c := calls(); c != wantCalls {
			t.Fatalf("%s: %d statfs calls, want %d", what, c, wantCalls)
		}
	}

	f.SetDiskUsage(200*mib, 1<<30)
	check("first check", mib, true, 1)
	check("cached", mib, true, 1)

	// Another process fills the disk: the cached figure lets small writes
	// through until it is spaceMaxAge old.
	behind(10 * mib)
	clk.Advance(spaceMaxAge / 2)
	check("cached while the disk filled", mib, true, 1)
	clk.Advance(spaceMaxAge / 2)
	check("aged figure read again", mib, false, 2)

	// A write the cached figure would refuse is checked on a fresh one.
	behind(200 * mib)
	check("refusal re-reads", mib, true, 3)
	check("cached again", mib, true, 3)

	// What the store writes comes off the cached figure (twice a batch's
	// bytes: its WAL record and its table file).
	behind(100 * mib) // 36 MiB above the 64 MiB reserve
	clk.Advance(spaceMaxAge)
	check("aged", mib, true, 4)
	b := db.NewBatch()
	b.Set([]byte("k"), make([]byte, 3*mib))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b.Close()
	db.space.mu.Lock()
	written := db.space.written.Load()
	db.space.mu.Unlock()
	if written < 6*mib || written > 6*mib+1024 {
		t.Fatalf("written since statfs: %d, want about 6 MiB", written)
	}
	check("30 MiB less 6 MiB written fits", 29*mib, true, 4)
	// 36 - 6 - 31 < 0: refused by the estimate, so read again; the volume
	// (a test double) still reports 100 MiB free, and it fits.
	check("estimate too low, re-read", 31*mib, true, 5)
	check("after the re-read nothing written counts", 35*mib, true, 5)

	// spaceMaxWritten bytes written make the figure stale at once.
	defer func(old int64) { spaceMaxWritten = old }(spaceMaxWritten)
	spaceMaxWritten = 4 * mib
	b = db.NewBatch()
	b.Set([]byte("k2"), make([]byte, 2*mib))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b.Close()
	check("written past the bound", mib, true, 6)

	// Faults.SetDiskUsage is seen at the next check.
	f.SetDiskUsage(10*mib, 1<<30)
	check("SetDiskUsage", mib, false, 7)
}

// TestMerged: the merged batch holds every mutation of its parts in their
// order, commits them in one step, and leaves the parts as they were.
func TestMerged(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true, CacheBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var bs []*Batch
	for i, k := range []string{"b", "a", "b"} {
		b := db.NewBatch()
		defer b.Close()
		b.Set([]byte(k), []byte{byte('0' + i)})
		if i == 1 {
			b.Delete([]byte("c"))
		}
		bs = append(bs, b)
	}
	m, err := Merged(bs)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	es, err := m.Entries()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, string(e.Key)+"="+string(e.Value))
	}
	if want := "[b=0 a=1 c= b=2]"; fmt.Sprint(got) != want {
		t.Fatalf("merged entries %v, want %s", got, want)
	}
	if bs[1].Len() == m.Len() || bs[0].Empty() {
		t.Fatal("the parts changed")
	}
	if err := m.Commit(); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"a": "1", "b": "2"} {
		if v, err := db.Get([]byte(k)); err != nil || string(v) != want {
			t.Fatalf("%s = %q, %v; want %q", k, v, err, want)
		}
	}
}
