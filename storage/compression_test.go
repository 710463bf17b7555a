package storage

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestCompression: "none" stores the table files uncompressed, "snappy"
// compressed; a store written with one opens and reads with the other;
// an unknown name is refused.
func TestCompression(t *testing.T) {
	dir := t.TempDir()
	val := bytes.Repeat([]byte("lineitem "), 100)
	usage := map[string]uint64{}
	for round, c := range []string{"snappy", "none"} {
		db, err := Open(dir, Options{NoSync: true, Compression: c})
		if err != nil {
			t.Fatal(err)
		}
		prefix := fmt.Sprintf("%c", 'a'+round)
		if err := db.Update(func(b *Batch) error {
			for i := range 2000 {
				b.Set([]byte(fmt.Sprintf("%s%05d", prefix, i)), val)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
		if usage[c], err = db.DiskUsage([]byte(prefix), PrefixEnd([]byte(prefix))); err != nil {
			t.Fatal(err)
		}
		// The rows of every round read back, whatever they were written with.
		for r := 0; r <= round; r++ {
			k := fmt.Sprintf("%c%05d", 'a'+r, 1999)
			if got, err := db.Get([]byte(k)); err != nil || !bytes.Equal(got, val) {
				t.Fatalf("%s store: %s = %.20q, %v", c, k, got, err)
			}
		}
		db.Close()
	}
	if usage["none"] < 3*usage["snappy"] {
		t.Fatalf("disk usage of 2000 compressible rows: none %d, snappy %d; want none several times larger", usage["none"], usage["snappy"])
	}
	if _, err := Open(t.TempDir(), Options{Compression: "lz5"}); err == nil || !strings.Contains(err.Error(), "unknown compression") {
		t.Fatalf("unknown compression: got %v", err)
	}
}
