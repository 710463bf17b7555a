package engine

import (
	"os"
	"path/filepath"
	"testing"

	"loadgw/storage"
)

// TestSpillDirEmptiedAtOpen: spill files left by a crash are removed when
// the engine opens again.
func TestSpillDirEmptiedAtOpen(t *testing.T) {
	dir := t.TempDir()
	e, err := Open(dir, Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(e.SpillDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	left := filepath.Join(e.SpillDir(), "spill-123")
	if err := os.WriteFile(left, []byte("cut off"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e, err = Open(dir, Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Fatalf("spill file left by a crash survived the restart: %v", err)
	}
}
