package metrics

import (
	"fmt"
	"testing"

	"loadgw/engine"
	"loadgw/storage"
)

// TestAllTablesOrder checks that AllTables lists the tables by database,
// then by name, whatever order the catalog keeps them in.
func TestAllTablesOrder(t *testing.T) {
	e, err := engine.Open(t.TempDir(), engine.Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true, CacheBytes: 4 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	sess := e.NewSession("information_schema")
	var want []string
	for _, db := range []string{"a", "b"} {
		if _, err := sess.Execute("CREATE DATABASE " + db); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 12; i++ {
			name := fmt.Sprintf("t%02d", i)
			want = append(want, db+"."+name)
			stmt := fmt.Sprintf("CREATE TABLE %s.%s (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1", db, name)
			if _, err := sess.Execute(stmt); err != nil {
				t.Fatal(err)
			}
		}
	}
	for round := 0; round < 5; round++ {
		got := AllTables(e.Catalog())
		if len(got) != len(want) {
			t.Fatalf("listed %d tables, want %d", len(got), len(want))
		}
		for i, tb := range got {
			if tb.DB+"."+tb.Name != want[i] {
				t.Fatalf("table %d is %s.%s, want %s", i, tb.DB, tb.Name, want[i])
			}
		}
	}
}
