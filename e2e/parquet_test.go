package e2e

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// TestParquetLargeBody loads a Parquet file larger than what a load keeps
// in memory (32 MiB) into the real binary: the body goes to a temporary
// file in the store's tmp-query directory, every row loads, and the file is
// gone after the load.
func TestParquetLargeBody(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the loadgw binary")
	}
	type row struct {
		K int64  `parquet:"k"`
		V string `parquet:"V"`
	}
	const n = 150_000
	start := time.Now()
	rng := rand.New(rand.NewSource(1))
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[row](&buf, parquet.Compression(&parquet.Uncompressed), parquet.MaxRowsPerRowGroup(40_000))
	batch := make([]row, 0, 1000)
	for i := 0; i < n; i++ {
		b := make([]byte, 120)
		rng.Read(b)
		batch = append(batch, row{K: int64(i), V: fmt.Sprintf("%x", b)})
		if len(batch) == cap(batch) {
			if _, err := w.Write(batch); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if buf.Len() <= 32<<20 {
		t.Fatalf("the file has %d bytes, not more than 32 MiB", buf.Len())
	}
	t.Logf("file of %d bytes written in %v", buf.Len(), time.Since(start))
	dataDir := filepath.Join(t.TempDir(), "data")
	s := startServer(t, buildBinary(t), dataDir)
	s.exec("information_schema", "CREATE DATABASE d")
	s.exec("d", "CREATE TABLE t (k BIGINT, v STRING) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	t.Logf("server up at %v", time.Since(start))
	r := s.streamLoad("d", "t", bytes.NewReader(buf.Bytes()), "format:parquet")
	requireSuccess(t, r, counts{n, n, 0, 0})
	t.Logf("loaded at %v", time.Since(start))
	s.expectRows("d", "SELECT count(*), min(k), max(k), min(length(v)) FROM t", nil,
		[]string{fmt.Sprintf("[%d,0,%d,240]", n, n-1)})
	left, err := os.ReadDir(filepath.Join(dataDir, "tmp-query"))
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Fatalf("files left in tmp-query: %v", left)
	}
}
