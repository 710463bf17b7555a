package engine

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"loadgw/storage"
)

// LOADGW_PIPE_ALL=1 go test ./engine also splits every key-filtered
// scan whose table is in several files or whose index lookup reads two
// keys or more.
func init() {
	if os.Getenv("LOADGW_PIPE_ALL") != "" {
		splitMinRows, splitMinKeys = 0, 2
	}
}

// withSplit runs fn with every pipelined filtered scan split (see
// scan_split.go) from lookups of two keys, and counts the split scans.
func withSplit(t *testing.T, fn func()) int64 {
	t.Helper()
	savedRows, savedKeys := splitMinRows, splitMinKeys
	splitMinRows, splitMinKeys = 0, 2
	defer func() { splitMinRows, splitMinKeys = savedRows, savedKeys }()
	before := splitRuns.Load()
	fn()
	return splitRuns.Load() - before
}

// TestSplitFilteredScanOrdered: a join probe's scan of a Duplicate Key
// table in several table files, and a probe read through an index lookup,
// run as two halves on two workers and still hand their rows over in the
// serial scan's order: the answers without ORDER BY, the first-seen order
// of groups and a LIMIT are the serial scan's. A scan with only a pushed
// filter is not split.
func TestSplitFilteredScanOrdered(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	mustExec(t, s, "CREATE DATABASE d; USE d")
	mustExec(t, s, "CREATE TABLE li (sd INT, ok INT, v INT, INDEX idx_ok (ok) USING INVERTED) DUPLICATE KEY(sd) DISTRIBUTED BY HASH(sd) BUCKETS 1")
	mustExec(t, s, "CREATE TABLE ord (ok INT, g VARCHAR(8)) DUPLICATE KEY(ok) DISTRIBUTED BY HASH(ok) BUCKETS 1")
	for chunk := range 4 {
		var vals []string
		for i := chunk * 3000; i < (chunk+1)*3000; i++ {
			vals = append(vals, fmt.Sprintf("(%d, %d, %d)", i, (i*7919)%6000, i))
		}
		mustExec(t, s, "INSERT INTO li VALUES "+strings.Join(vals, ","))
		if err := e.db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	var ords []string
	for i := range 6000 {
		ords = append(ords, fmt.Sprintf("(%d, 'g%d')", i, (i*31)%17))
	}
	mustExec(t, s, "INSERT INTO ord VALUES "+strings.Join(ords, ","))
	tbl, err := e.Catalog().Table("d", "li")
	if err != nil {
		t.Fatal(err)
	}
	prefix := e.Codec(tbl).Prefix()
	if e.db.SplitKey(prefix, storage.PrefixEnd(prefix)) == nil {
		t.Fatal("four table files: want a split key")
	}
	queries := []string{
		// The probe (li) filtered by the few keys of ord: an index lookup.
		"SELECT sd, v, g FROM li, ord WHERE li.ok = ord.ok AND ord.ok % 500 = 3",
		// Many keys: the scan's range, cut at a table file boundary.
		"SELECT sd, v, g FROM li, ord WHERE li.ok = ord.ok AND ord.ok % 3 = 1",
		"SELECT g, count(*), sum(v) FROM li, ord WHERE li.ok = ord.ok AND ord.ok % 7 = 2 GROUP BY g",
		"SELECT sd, v, g FROM li, ord WHERE li.ok = ord.ok AND ord.ok % 5 = 1 LIMIT 7",
		"SELECT sd, v FROM li WHERE v % 5 = 1",
	}
	var serial [][][]string
	withPipe(t, -1, func() {
		for _, q := range queries {
			serial = append(serial, formatRows(mustExec(t, s, q)))
		}
	})
	var lookups int64
	splits := withSplit(t, func() {
		withPipe(t, 0, func() {
			before := indexLookupRows.Load()
			for i, q := range queries {
				if got := formatRows(mustExec(t, s, q)); !reflect.DeepEqual(got, serial[i]) {
					t.Errorf("%s: split answer differs from the serial one:\n got %.300v\nwant %.300v", q, got, serial[i])
				}
			}
			lookups = indexLookupRows.Load() - before
		})
	})
	if splits != int64(len(queries)-1) {
		t.Errorf("%d split scans, want %d (all but the scan without a join)", splits, len(queries)-1)
	}
	if lookups != 24 { // ok % 500 = 3: 12 keys of two rows each
		t.Errorf("%d rows fetched through the index, want 24", lookups)
	}
	if len(serial[0]) != 24 || len(serial[3]) != 7 {
		t.Fatalf("serial answers of %d and %d rows, want 24 and 7", len(serial[0]), len(serial[3]))
	}
}
