package stream

import (
	"errors"
	"testing"

	"loadgw/storage"
)

func openTest(t *testing.T) (*storage.DB, *Manager) {
	t.Helper()
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	m, err := OpenManager(db)
	if err != nil {
		t.Fatal(err)
	}
	return db, m
}

// TestConsumeConflict checks that of two consumers that read the same
// partition at the same offset, the one that commits later fails with
// Doris's text and moves nothing, and that other partitions and streams
// are independent.
func TestConsumeConflict(t *testing.T) {
	db, m := openTest(t)
	s := &Stream{DB: "d", Name: "s", TableID: 1, Units: map[string]Unit{"p1": {Offset: 10}, "p2": {Offset: 10}}}
	if err := m.Create(s); err != nil {
		t.Fatal(err)
	}
	if err := m.Create(&Stream{DB: "d", Name: "s2", TableID: 1, Units: map[string]Unit{"p1": {Offset: 10}}}); err != nil {
		t.Fatal(err)
	}
	s1, s2 := m.Lookup("d", "s"), m.Lookup("d", "s2")
	read := func(st *Stream, upper uint64, parts ...string) map[int64]*Consumption {
		c := &Consumption{ID: st.ID, Upper: upper, Seen: map[string]Unit{}}
		for _, p := range parts {
			c.Seen[p] = st.Units[p]
		}
		return map[int64]*Consumption{st.ID: c}
	}
	a, b := read(s1, 20, "p1"), read(s1, 30, "p1", "p2")
	if err := m.Consume(db, a, 1000); err != nil {
		t.Fatal(err)
	}
	if err := m.Consume(db, b, 2000); !errors.Is(err, ErrConsumed) || err.Error() != "target offset already consumed" {
		t.Fatalf("second consumer: %v", err)
	}
	got := m.Lookup("d", "s")
	if got.Units["p1"] != (Unit{Offset: 20, ConsumedAt: 1000}) || got.Units["p2"] != (Unit{Offset: 10}) {
		t.Fatalf("offsets after the conflict: %+v", got.Units)
	}
	if err := m.Consume(db, read(s1, 30, "p2"), 3000); err != nil {
		t.Fatalf("another partition: %v", err)
	}
	if err := m.Consume(db, read(s2, 40, "p1"), 4000); err != nil {
		t.Fatalf("another stream: %v", err)
	}
	m2, err := OpenManager(db)
	if err != nil {
		t.Fatal(err)
	}
	got = m2.Lookup("d", "s")
	if got.Units["p1"].Offset != 20 || got.Units["p2"].Offset != 30 || m2.Lookup("d", "s2").Units["p1"].Offset != 40 {
		t.Fatalf("offsets after reopening: %+v %+v", got.Units, m2.Lookup("d", "s2").Units)
	}
}

// TestCommitTo checks the HTTP consumer's commit: it only moves offsets
// forward, covers partitions without an offset, and repeats harmlessly.
func TestCommitTo(t *testing.T) {
	_, m := openTest(t)
	if err := m.Create(&Stream{DB: "d", Name: "s", Units: map[string]Unit{"p1": {Offset: 50}, "p2": {Initial: true}}}); err != nil {
		t.Fatal(err)
	}
	id := m.Lookup("d", "s").ID
	for _, tso := range []uint64{40, 60, 60} {
		if err := m.CommitTo(id, []string{"p1", "p2", "p3"}, tso, 7); err != nil {
			t.Fatal(err)
		}
	}
	u := m.Get(id).Units
	want := Unit{Offset: 60, ConsumedAt: 7}
	if u["p1"] != want || u["p2"] != want || u["p3"] != want {
		t.Fatalf("units %+v", u)
	}
}
