package engine

import (
	"testing"
	"time"

	"loadgw/types"
)

// TestObjectsShownAsNull checks that HLL, BITMAP and QUANTILE_STATE result
// columns show as NULL on every result path (collected and streamed), while
// INSERT ... SELECT still copies the values.
func TestObjectsShownAsNull(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	if _, err := s.Execute("CREATE DATABASE d; USE d; CREATE TABLE t (k INT, h HLL, b BITMAP) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1; " +
		"CREATE TABLE c (k INT, h HLL, b BITMAP) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1; " +
		"INSERT INTO t VALUES (1, hll_hash('a'), to_bitmap(7)); INSERT INTO c SELECT * FROM t"); err != nil {
		t.Fatal(err)
	}
	res, err := s.Execute("SELECT k, h, b, hll_cardinality(h), bitmap_to_string(b) FROM c")
	if err != nil {
		t.Fatal(err)
	}
	r := res.Rows[0]
	if !r[1].IsNull() || !r[2].IsNull() || r[3].I != 1 || r[4].S != "7" {
		t.Fatalf("collected row %v", r)
	}
	var got []types.Value
	_, streamed, err := s.ExecuteStream("SELECT k, h, b FROM c", RowSink{
		Columns: func([]Column, *time.Location) error { return nil },
		Row:     func(row []types.Value) error { got = append(got, row...); return nil },
	})
	if err != nil || !streamed {
		t.Fatalf("streamed=%v err=%v", streamed, err)
	}
	if len(got) != 3 || got[0].I != 1 || !got[1].IsNull() || !got[2].IsNull() {
		t.Fatalf("streamed row %v", got)
	}
}
