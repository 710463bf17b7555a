package engine

import (
	"fmt"
	"strings"
	"testing"
)

// TestRuntimeFilterRows checks that runtime filters reach their scans at
// run time: the rows the filtered scans pass on are those that can join,
// counted through keyFilteredRows, and the answers are the same as with
// the filters off (a join order the planner keeps without them).
func TestRuntimeFilterRows(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	var li, ord strings.Builder
	for i := range 400 {
		if i > 0 {
			li.WriteString(", ")
		}
		// order i%100, part i%50, supplier i%20
		fmt.Fprintf(&li, "(%d, %d, %d, %d, %d.25)", i%7, i%100, i%50, i%20, i)
	}
	for o := range 100 {
		if o > 0 {
			ord.WriteString(", ")
		}
		fmt.Fprintf(&ord, "(%d, %d)", o, o%10)
	}
	for _, q := range []string{
		"CREATE DATABASE d",
		"CREATE TABLE d.li (sd INT, ok BIGINT, pk INT, sk INT, price DECIMAL(15, 2)) DUPLICATE KEY(sd, ok) DISTRIBUTED BY HASH(ok) BUCKETS 1",
		"CREATE TABLE d.ord (ok BIGINT, odate INT) DUPLICATE KEY(ok) DISTRIBUTED BY HASH(ok) BUCKETS 1",
		"CREATE TABLE d.part (pk INT, ptype VARCHAR(10)) DUPLICATE KEY(pk) DISTRIBUTED BY HASH(pk) BUCKETS 1",
		"CREATE TABLE d.supp (sk INT, nk INT) DUPLICATE KEY(sk) DISTRIBUTED BY HASH(sk) BUCKETS 1",
		"INSERT INTO d.li VALUES " + li.String(),
		"INSERT INTO d.ord VALUES " + ord.String(),
		// parts 0..49: 0, 10, 20, 30, 40 are steel
		"INSERT INTO d.part SELECT number, if(number % 10 = 0, 'STEEL', 'TIN') FROM numbers('number' = '50')",
		// suppliers 0..19: nation 7 for 0..3
		"INSERT INTO d.supp SELECT number, if(number < 4, 7, 8) FROM numbers('number' = '20')",
	} {
		if _, err := s.Execute(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s = e.NewSession("d")
	for _, c := range []struct {
		name, q string
		answer  string
		// passed is the rows all filtered scans pass on
		passed int64
		// mem, when set, is exec_mem_limit for the query
		mem string
	}{{
		// li (probe of the join of ord, itself the probe of the join of
		// part) is filtered by ok (odate 0 or 1: i%10 in 0, 1: 80 rows)
		// and by pk two joins up (steel, i%50 in 0, 10, ..., 40): the 40
		// rows with i%10 = 0 pass; ord and part are built, not filtered.
		name:   "chain",
		q:      "SELECT count(*), sum(price) FROM li JOIN ord ON li.ok = ord.ok JOIN part ON part.pk = li.pk WHERE ptype = 'STEEL' AND odate < 2",
		answer: "40 | 7810.00",
		passed: 40,
	}, {
		// li is filtered by the steel parts (40 rows, suppliers 0 and
		// 10); supp, the probe of the join of those rows, by their sk
		// and by the nation join's nk two joins up (suppliers 0..3):
		// supplier 0 passes. supp reads only columns the filters read,
		// so it filters rows read whole.
		name:   "two filters on one scan, one on the build side below",
		q:      "SELECT count(*) FROM (SELECT 7 AS nk) n JOIN supp ON supp.nk = n.nk JOIN li ON li.sk = supp.sk JOIN part ON part.pk = li.pk WHERE ptype = 'STEEL'",
		answer: "20",
		passed: 41,
	}, {
		// the key filter's pk is decoded and tested first, then price
		// (the pushed filter's column) for the 40 steel rows: 30 pass
		name:   "key filter before the pushed filter",
		q:      "SELECT count(*), min(price) FROM li JOIN part ON part.pk = li.pk WHERE ptype = 'STEEL' AND price > 100",
		answer: "30 | 100.25",
		passed: 30,
	}, {
		// the 20 orders of odate 0 or 1 pass the memory bound set here:
		// the join partitions both sides, and the filter of the order
		// keys it collected still reaches li's scan, which passes the 80
		// li rows of those orders to the partitions instead of all 400
		// (the build rows hold ok alone: odate is read by ord's scan only)
		name:   "spilled build side",
		q:      "SELECT count(*), sum(price) FROM li JOIN ord ON li.ok = ord.ok WHERE odate < 2",
		answer: "80 | 15660.00",
		passed: 80,
		mem:    "1024",
	}} {
		t.Run(c.name, func(t *testing.T) {
			if c.mem != "" {
				if _, err := s.Execute("SET exec_mem_limit = " + c.mem); err != nil {
					t.Fatal(err)
				}
				defer s.Execute("SET exec_mem_limit = DEFAULT")
			}
			files := e.SpillFiles()
			before := keyFilteredRows.Load()
			res, err := s.Execute(c.q)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitN(strings.TrimSpace(formatResult(res)), "\n", 2)
			if got := lines[len(lines)-1]; got != c.answer {
				t.Errorf("answer %q, want %q", got, c.answer)
			}
			if spilled := e.SpillFiles() > files; spilled != (c.mem != "") {
				t.Errorf("spilled %v, want %v", spilled, c.mem != "")
			}
			if passed := keyFilteredRows.Load() - before; c.passed >= 0 && passed != c.passed {
				plan, _ := s.Execute("EXPLAIN VERBOSE " + c.q)
				t.Errorf("filtered scans passed on %d rows, want %d; plan:\n%s", passed, c.passed, formatResult(plan))
			}
		})
	}
}
