package engine

import (
	"fmt"
	"testing"

	"loadgw/storage"
)

// TestPointLookupSeesWrites: point lookups read through iterators the store
// reuses while nothing is written (storage.DB.Reuse); each lookup still
// sees every write committed before it by any session: an upsert, a
// DELETE, a stream of upserts interleaved with lookups of the same and
// other keys, and a TRUNCATE.
func TestPointLookupSeesWrites(t *testing.T) {
	e, err := Open(t.TempDir(), Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	w, r := e.NewSession(""), e.NewSession("")
	exec := func(s *Session, q string) *Result {
		t.Helper()
		res, err := s.Execute(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return res
	}
	exec(w, "CREATE DATABASE p")
	exec(w, "USE p")
	exec(r, "USE p")
	exec(w, "CREATE TABLE u (k BIGINT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	exec(w, "INSERT INTO u VALUES (1, 10), (2, 20)")
	lookup := func(k int) string {
		t.Helper()
		res := exec(r, fmt.Sprintf("SELECT v FROM u WHERE k = %d", k))
		if len(res.Rows) == 0 {
			return "none"
		}
		return fmt.Sprint(res.Rows[0][0].I)
	}
	for i := range 50 {
		if got := lookup(2); got != "20" {
			t.Fatalf("round %d: k=2 is %s, want 20", i, got)
		}
		exec(w, fmt.Sprintf("INSERT INTO u VALUES (1, %d)", 100+i))
		if got, want := lookup(1), fmt.Sprint(100+i); got != want {
			t.Fatalf("round %d: k=1 is %s after the upsert, want %s", i, got, want)
		}
		if got, want := lookup(1), fmt.Sprint(100+i); got != want {
			t.Fatalf("round %d: k=1 is %s at the second lookup, want %s", i, got, want)
		}
	}
	exec(w, "DELETE FROM u WHERE k = 2")
	if got := lookup(2); got != "none" {
		t.Fatalf("k=2 is %s after the DELETE", got)
	}
	exec(w, "TRUNCATE TABLE u")
	if got := lookup(1); got != "none" {
		t.Fatalf("k=1 is %s after the TRUNCATE", got)
	}
	exec(w, "INSERT INTO u VALUES (1, 7)")
	if got := lookup(1); got != "7" {
		t.Fatalf("k=1 is %s after the TRUNCATE and an insert, want 7", got)
	}
}

// TestPointLookupAnswersKept: the point lookup keeps its version walk, its
// iterator and its decode scratch between lookups, and reuses an answer
// released (Session.Release); the answers a caller still holds are not
// changed by later lookups of other keys, of a table
// with more columns, of a key that is absent, or by lookups interleaved
// with writes.
func TestPointLookupAnswersKept(t *testing.T) {
	e, err := Open(t.TempDir(), Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession("")
	exec := func(q string) *Result {
		t.Helper()
		res, err := s.Execute(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return res
	}
	exec("CREATE DATABASE p")
	exec("USE p")
	exec("CREATE TABLE u (k BIGINT, v INT, s VARCHAR(32)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	exec("CREATE TABLE w (k BIGINT, a VARCHAR(32), b VARCHAR(32), c INT, d VARCHAR(32)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	for k := range 20 {
		exec(fmt.Sprintf("INSERT INTO u VALUES (%d, %d, 'u-%d')", k, 10*k, k))
		exec(fmt.Sprintf("INSERT INTO w VALUES (%d, 'a-%d', 'b-%d', %d, 'd-%d')", k, k, k, k, k))
	}
	type held struct {
		res  *Result
		want string
	}
	var hold []held
	for i := range 60 {
		k := i * 7 % 23 // 20, 21 and 22 are absent
		var q, want string
		if i%3 == 2 {
			q = fmt.Sprintf("SELECT * FROM w WHERE k = %d", k)
			want = fmt.Sprintf("%d,a-%d,b-%d,%d,d-%d;", k, k, k, k, k)
		} else {
			q = fmt.Sprintf("SELECT * FROM u WHERE k = %d", k)
			want = fmt.Sprintf("%d,%d,u-%d;", k, 10*k, k)
		}
		if k >= 20 {
			want = ""
		}
		res := exec(q)
		if i%2 == 1 {
			// Released (Session.Release): the next lookup may reuse it,
			// never one still held.
			if got := rowsText(res); got != want {
				t.Fatalf("lookup %d: %q, want %q", i, got, want)
			}
			s.Release(res)
		} else {
			hold = append(hold, held{res, want})
		}
		if i%10 == 9 {
			// A write in between: the next lookup opens a fresh iterator.
			exec(fmt.Sprintf("INSERT INTO u VALUES (%d, %d, 'u-%d')", i%20, 10*(i%20), i%20))
		}
		for j, h := range hold {
			if got := rowsText(h.res); got != h.want {
				t.Fatalf("after lookup %d: answer %d is %q, want %q", i, j, got, h.want)
			}
		}
	}
}
