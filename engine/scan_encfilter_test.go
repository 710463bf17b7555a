package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"loadgw/storage"
)

// TestEncodedFilterMatchesDecoded: random conjunctions of comparisons on
// integer-like key and value columns (every operator, both operand
// orders, column against column, BETWEEN and NOT BETWEEN, NULLs, bounds
// at the types' limits) beside conjuncts decided on the decoded row
// answer exactly as with filtering on the stored bytes turned off, on a
// Duplicate Key table and on a Unique Key table with several versions per
// key and deletes, with rows written before and after a column was added.
func TestEncodedFilterMatchesDecoded(t *testing.T) {
	e, err := Open(t.TempDir(), Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	s := e.NewSession("")
	exec := func(q string) *Result {
		t.Helper()
		res, err := s.Execute(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return res
	}
	exec("CREATE DATABASE ef; USE ef")
	cols := "(k1 DATE, k2 SMALLINT, ti TINYINT, i INT, bi BIGINT, b BOOLEAN, dt DATETIME(3), dc DECIMAL(9, 2), s VARCHAR(4))"
	exec("CREATE TABLE d " + cols + " DUPLICATE KEY(k1, k2) DISTRIBUTED BY HASH(k2) BUCKETS 1")
	exec("CREATE TABLE u " + cols + " UNIQUE KEY(k1, k2) DISTRIBUTED BY HASH(k2) BUCKETS 1")
	r := rand.New(rand.NewPCG(14, 17))
	null := func(v string) string {
		if r.IntN(8) == 0 {
			return "NULL"
		}
		return v
	}
	row := func(withA bool) string {
		a := ""
		if withA {
			a = ", " + null(fmt.Sprint(r.IntN(5)-2))
		}
		return fmt.Sprintf("(%s, %s, %s, %s, %s, %s, %s, %s, %s%s)",
			null(fmt.Sprintf("'2024-01-%02d'", 1+r.IntN(5))), null(fmt.Sprint(r.IntN(20)-5)),
			null(fmt.Sprint([]int{-128, 127, 0, 1, -1, 5}[r.IntN(6)])), null(fmt.Sprint(r.IntN(9)-4)),
			null(fmt.Sprint([]int64{-9223372036854775808, 9223372036854775807, 0, 3, -3}[r.IntN(5)])),
			null([]string{"true", "false"}[r.IntN(2)]),
			null(fmt.Sprintf("'2024-01-01 00:00:0%d.%03d'", r.IntN(3), []int{0, 500, 999}[r.IntN(3)])),
			null(fmt.Sprintf("%d.%02d", r.IntN(7)-3, r.IntN(3)*25)), null(fmt.Sprintf("'%c'", 'a'+r.IntN(4))), a)
	}
	for batch := 0; batch < 4; batch++ {
		var vals []string
		for range 60 {
			vals = append(vals, row(batch >= 2))
		}
		exec("INSERT INTO d VALUES " + strings.Join(vals, ","))
		exec("INSERT INTO u VALUES " + strings.Join(vals, ","))
		exec(fmt.Sprintf("DELETE FROM u WHERE k2 = %d", r.IntN(20)-5))
		if batch == 1 {
			exec("ALTER TABLE d ADD COLUMN a INT DEFAULT '2'")
			exec("ALTER TABLE u ADD COLUMN a INT DEFAULT '2'")
		}
		if batch >= 2 {
			exec(fmt.Sprintf("UPDATE u SET a = i WHERE k2 = %d", r.IntN(20)-5))
		}
	}
	type colLits struct {
		name string
		lits []string
	}
	cl := []colLits{
		{"k1", []string{"'2024-01-02'", "'2024-01-05'", "'2023-12-31'"}},
		{"k2", []string{"0", "-5", "14", "7"}},
		{"ti", []string{"-128", "127", "0", "1", "-129", "128"}},
		{"i", []string{"0", "-4", "4", "2"}},
		{"bi", []string{"-9223372036854775808", "9223372036854775807", "0", "3"}},
		{"b", []string{"true", "false"}},
		{"dt", []string{"'2024-01-01 00:00:01'", "'2024-01-01 00:00:01.5'", "'2024-01-01 00:00:02.500'"}},
		{"dc", []string{"0", "1.25", "-3", "2.50", "0.5"}},
		{"a", []string{"2", "0", "-1"}},
	}
	ops := []string{"<", "<=", ">", ">=", "=", "!="}
	intCols := []string{"k2", "ti", "i", "a"}
	conj := func() string {
		c := cl[r.IntN(len(cl))]
		lit := c.lits[r.IntN(len(c.lits))]
		op := ops[r.IntN(len(ops))]
		switch r.IntN(7) {
		case 0:
			return fmt.Sprintf("%s %s %s", lit, op, c.name)
		case 1:
			return fmt.Sprintf("%s %s %s", intCols[r.IntN(len(intCols))], op, intCols[r.IntN(len(intCols))])
		case 2:
			not := []string{"", "NOT "}[r.IntN(2)]
			return fmt.Sprintf("%s %sBETWEEN %s AND %s", c.name, not, lit, c.lits[r.IntN(len(c.lits))])
		case 3:
			return []string{"s > 'b'", "s IS NULL", "i + 0 > 1", "(i < 0 OR bi > 0)"}[r.IntN(4)]
		}
		return fmt.Sprintf("%s %s %s", c.name, op, lit)
	}
	before := encScans.Load()
	for q := 0; q < 300; q++ {
		var cs []string
		for range 1 + r.IntN(3) {
			cs = append(cs, conj())
		}
		tb := []string{"d", "u"}[q%2]
		query := fmt.Sprintf("SELECT k1, k2, ti, i, bi, b, dt, dc, s, a FROM %s WHERE %s ORDER BY k1, k2, ti, i, bi, b, dt, dc, s, a", tb, strings.Join(cs, " AND "))
		count := fmt.Sprintf("SELECT count(*), sum(i), max(dc) FROM %s WHERE %s", tb, strings.Join(cs, " AND "))
		for _, qq := range []string{query, count} {
			got := formatResult(exec(qq))
			encFilterOn = false
			want := formatResult(exec(qq))
			encFilterOn = true
			if got != want {
				t.Fatalf("%s:\nfiltered on stored bytes:\n%s\ndecoded:\n%s", qq, got, want)
			}
		}
	}
	if n := encScans.Load() - before; n < 200 {
		t.Errorf("only %d scans filtered on stored bytes", n)
	}
}
