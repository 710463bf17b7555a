package engine

import (
	"testing"

	"loadgw/storage"
)

// TestStreamReadKeepsRecentVersions: reading a table stream takes a
// consistent view under the writer's lock but changes no rows, so it must
// not empty the writer's cache of recently committed versions (nor make
// concurrent commits redo their resolution).
func TestStreamReadKeepsRecentVersions(t *testing.T) {
	e, err := Open(t.TempDir(), Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession("")
	for _, q := range []string{
		"CREATE DATABASE db",
		"USE db",
		`CREATE TABLE t (k BIGINT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true", "binlog.format" = "ROW", "binlog.need_historical_value" = "true")`,
		`CREATE STREAM st ON TABLE t PROPERTIES ("type" = "min_delta")`,
		"INSERT INTO t VALUES (1, 1), (2, 2)",
		"SELECT * FROM st",
	} {
		if _, err := s.Execute(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	hits := e.writer.RecentHits()
	if _, err := s.Execute("INSERT INTO t VALUES (1, 10), (2, 20)"); err != nil {
		t.Fatal(err)
	}
	if h := e.writer.RecentHits() - hits; h != 2 {
		t.Errorf("rewriting 2 keys after a stream read found %d versions in the cache, want 2", h)
	}
	res, err := s.Execute("SELECT k, v FROM t ORDER BY k")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 2 || res.Rows[0][1].I != 10 || res.Rows[1][1].I != 20 {
		t.Errorf("rows after the rewrite: %v", res.Rows)
	}
}
