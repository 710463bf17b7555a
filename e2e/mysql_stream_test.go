package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestMySQLStreamedResults reads results larger than one batch (1,024
// rows) through the text protocol, which streams them: every row arrives
// in order; an empty result still has its columns; a failing query still
// answers with its error.
func TestMySQLStreamedResults(t *testing.T) {
	_, addr := startMySQLServer(t)
	root := openDB(t, addr, "", "")
	mustExec(t, root, "CREATE DATABASE st")
	db := openDB(t, addr, "st", "")
	mustExec(t, db, "CREATE TABLE t (k INT, s VARCHAR(16)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	var sb strings.Builder
	sb.WriteString("INSERT INTO t VALUES ")
	const n = 5000
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, "(%d, 'r%d')", i, i)
	}
	mustExec(t, db, sb.String())

	rows, err := db.Query("SELECT k, s FROM t ORDER BY k DESC")
	if err != nil {
		t.Fatal(err)
	}
	got := scanStrings(t, rows)
	if len(got) != n {
		t.Fatalf("got %d rows, want %d", len(got), n)
	}
	for i, r := range got {
		if want := fmt.Sprint(n - 1 - i); r[0] != want || r[1] != "r"+want {
			t.Fatalf("row %d = %v, want k %s", i, r, want)
		}
	}

	rows, err = db.Query("SELECT k FROM t WHERE k < 0")
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.Columns()
	if got := scanStrings(t, rows); len(got) != 0 || len(cols) != 1 || cols[0] != "k" {
		t.Fatalf("empty result: columns %v rows %v", cols, got)
	}

	if _, err := db.Query("SELECT nope FROM t"); err == nil || !strings.Contains(err.Error(), "errCode = 2, detailMessage = ") {
		t.Fatalf("failing SELECT: %v", err)
	}
	rows, err = db.Query("SELECT count(*) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	if got := scanStrings(t, rows); got[0][0] != fmt.Sprint(n) {
		t.Fatalf("count after the failure = %v", got)
	}
}
