package storage

import "testing"

func TestIterCloseTwice(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	a, err := db.NewIter(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := db.NewIter(nil, nil) // may reuse a's pooled iterator
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if b.First() {
		t.Fatal("an empty store has a key")
	}
	if err := b.Close(); err != nil {
		t.Fatalf("closing a's iterator twice closed b's: %v", err)
	}
}
