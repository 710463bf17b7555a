package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"loadgw/sql"
	"loadgw/types"
)

// TestShortCircuitMatchesPlanner runs point queries through the short
// circuit and through the planner and requires the same columns, rows and
// errors, over every table model, TTL, sequence columns, deletes, hidden
// columns and literals that do or do not match the key type.
func TestShortCircuitMatchesPlanner(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	for _, q := range []string{
		"CREATE DATABASE p",
		"USE p",
		"CREATE TABLE u (k BIGINT, v INT, s VARCHAR(32)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
		"CREATE TABLE u2 (a VARCHAR(8), b INT, v DOUBLE, d DATETIME(3)) UNIQUE KEY(a, b) DISTRIBUTED BY HASH(a) BUCKETS 1",
		`CREATE TABLE mor (k INT, v VARCHAR(8), seq INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("function_column.sequence_col" = "seq", "enable_unique_key_merge_on_write" = "false")`,
		"CREATE TABLE d (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
		"CREATE TABLE agg (k INT, v INT SUM) AGGREGATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
		`CREATE TABLE ttl_t (id INT, message STRING) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "true", "function_column.enable_row_ttl" = "true")`,
		"INSERT INTO u VALUES (1, 10, 'one'), (2, 20, 'two'), (3, 30, NULL), (-4, 40, 'neg')",
		"INSERT INTO u VALUES (2, 21, 'two again')",
		"DELETE FROM u WHERE k = 3",
		"INSERT INTO u2 VALUES ('x', 1, 1.5, '2024-01-02 03:04:05.678'), ('x', 2, 2.5, NULL), ('y', 1, 3.5, '2025-01-01 00:00:00')",
		"INSERT INTO mor VALUES (1, 'a', 5), (1, 'b', 3), (2, 'c', 1)",
		"INSERT INTO d VALUES (1, 1), (1, 2), (2, 3)",
		"INSERT INTO agg VALUES (1, 1), (1, 2), (2, 3)",
		"INSERT INTO ttl_t (id, message, __DORIS_TTL_COL__) VALUES (1, 'expired', 0), (2, 'live', 9223372036854775807)",
	} {
		if _, err := s.Execute(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	short := []string{
		"SELECT * FROM u WHERE k = 1",
		"SELECT * FROM u WHERE k = 2",
		"SELECT * FROM u WHERE k = 3",
		"SELECT * FROM u WHERE k = 99",
		"SELECT * FROM u WHERE k = -4",
		"SELECT * FROM u WHERE 1 = k",
		"SELECT s, k, v FROM u WHERE k = 1",
		"SELECT k AS key1, s AS x FROM u WHERE k = 2",
		"SELECT x.* FROM u x WHERE x.k = 1",
		"SELECT u.k, u.s FROM u WHERE u.k = 1",
		"SELECT * FROM p.u WHERE k = 1 AND v = 10",
		"SELECT * FROM u WHERE k = 1 AND v = 11",
		"SELECT * FROM u WHERE k = 1 AND s = 'one'",
		"SELECT * FROM u WHERE k = 1 LIMIT 1",
		"SELECT * FROM u WHERE k = 1 AND k = 2",
		"SELECT __DORIS_DELETE_SIGN__, k FROM u WHERE k = 1",
		"SELECT __DORIS_VERSION_COL__, k FROM u WHERE k = 2",
		"SELECT k, __doris_version_col__ FROM u WHERE k = 1",
		"SELECT k FROM u WHERE k = 2 AND __DORIS_VERSION_COL__ = 2",
		"SELECT k FROM u WHERE k = 2 AND __DORIS_VERSION_COL__ = 1",
		"SELECT * FROM u2 WHERE a = 'x' AND b = 1",
		"SELECT * FROM u2 WHERE b = 2 AND a = 'x'",
		"SELECT d, v FROM u2 WHERE a = 'y' AND b = 1",
		"SELECT * FROM mor WHERE k = 1",
		"SELECT * FROM d WHERE k = 1",
		"SELECT * FROM agg WHERE k = 1",
		"SELECT * FROM ttl_t WHERE id = 1",
		"SELECT * FROM ttl_t WHERE id = 2",
		"SELECT k, nope FROM u WHERE k = 1",
	}
	planned := []string{
		"SELECT * FROM u WHERE k = '1'",
		"SELECT * FROM u WHERE k = 1.0",
		"SELECT * FROM u WHERE k = NULL",
		"SELECT * FROM u WHERE k = 1 OR k = 2",
		"SELECT * FROM u WHERE k > 1",
		"SELECT * FROM u2 WHERE a = 'x'",
		"SELECT v + 1 FROM u WHERE k = 1",
		"SELECT count(*) FROM u WHERE k = 1",
		"SELECT DISTINCT v FROM u WHERE k = 1",
		"SELECT * FROM u WHERE k = 1 ORDER BY v",
		"SELECT * FROM u WHERE k = 1 LIMIT 1, 1",
		"SELECT * FROM nope WHERE k = 1",
		"SELECT * FROM u WHERE nope = 1",
		"SELECT * FROM u WHERE k = 1 AND nope = 1",
		"SELECT /*+ SET_VAR(a=1) */ * FROM u WHERE k = 1",
	}
	for _, show := range []string{"false", "true"} {
		if _, err := s.Execute("SET show_hidden_columns = " + show); err != nil {
			t.Fatal(err)
		}
		for _, q := range append(append([]string(nil), short...), planned...) {
			sel := parseSelect(t, q)
			want, wantErr := s.plannedQuery(s.withDefaultLimit(sel))
			got, ok, gotErr := s.shortCircuit(s.withDefaultLimit(parseSelect(t, q)))
			isShort := shortListed(short, q) && !strings.Contains(q, "nope")
			if ok != isShort {
				t.Errorf("%s: short circuit taken = %v, want %v", q, ok, isShort)
			}
			if !ok {
				continue
			}
			if g, w := describeResult(got, gotErr), describeResult(want, wantErr); g != w {
				t.Errorf("show_hidden_columns=%s %s:\nshort circuit:\n%s\nplanner:\n%s", show, q, g, w)
			}
		}
	}
}

func parseSelect(t *testing.T, q string) *sql.Select {
	t.Helper()
	stmts, err := sql.Parse(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return stmts[0].(*sql.Select)
}

func describeResult(res *Result, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	for _, c := range res.Columns {
		fmt.Fprintf(&b, "%s:%s(%s) ", c.Name, c.Type, c.OrigName)
	}
	b.WriteString("\n")
	for _, r := range res.Rows {
		for _, v := range r {
			b.WriteString(types.Format(v, time.UTC) + " | ")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func shortListed(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
