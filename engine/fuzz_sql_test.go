package engine

import (
	"context"
	"fmt"
	"testing"
	"time"

	"loadgw/clock"
	"loadgw/sql"
	"loadgw/storage"
)

// fuzzSetup is the fixed catalog FuzzQuery runs its queries against: a
// column of each family of types, a few rows, NULLs among them.
var fuzzSetup = []string{
	"CREATE DATABASE f",
	"USE f",
	"CREATE TABLE t (k INT, s VARCHAR(20), dc DECIMAL(10, 2), dt DATETIME, a ARRAY<INT>, m MAP<STRING, INT>, st STRUCT<x:INT, y:STRING>, j JSON, v VARIANT, ip IPV4) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
	`INSERT INTO t VALUES (1, 'a', 1.50, '2026-01-01 00:00:00', [1, 2], {'x': 1}, {1, 'p'}, '{"a": [1, 2]}', '{"a": 1, "b": {"c": "d"}}', '1.2.3.4'),
		(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
		(3, 'ccc', -2.25, '2026-06-30 12:00:00', [], {}, {NULL, NULL}, '[]', '[1, "x"]', '255.255.255.255')`,
	"CREATE TABLE u (k INT, g INT, n BIGINT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
	"INSERT INTO u VALUES (1, 1, 10), (2, 1, NULL), (3, 2, 30), (4, NULL, 40)",
	"CREATE VIEW w AS SELECT k, g, n * 2 AS n2 FROM u",
}

// FuzzQuery parses, binds and runs queries on a small fixed catalog.
// Nothing recovers a panic here: any input that panics (or overflows the
// stack) fails the fuzzer, where in the server it would be an internal
// error or a dead process. Errors are fine; only SELECTs run, so that the
// catalog stays the same.
func FuzzQuery(f *testing.F) {
	for _, q := range []string{
		"SELECT * FROM t",
		"SELECT k, a[1], m['x'], st.x, j->'$.a', v['b']['c'], ip FROM t ORDER BY k",
		"SELECT g, count(*), sum(n), group_concat(k) FROM u GROUP BY g HAVING count(*) > 0 ORDER BY g",
		"SELECT k, row_number() OVER (PARTITION BY g ORDER BY n DESC), lag(n, 1, 0) OVER (ORDER BY k) FROM u",
		"WITH c AS (SELECT k FROM u WHERE n > 10) SELECT * FROM t JOIN c USING (k)",
		"SELECT * FROM t a LEFT JOIN u b ON a.k = b.k WHERE b.n IS NULL",
		"SELECT k FROM u WHERE k IN (SELECT k FROM t) AND EXISTS (SELECT 1 FROM w WHERE w.k = u.k)",
		"SELECT k FROM u UNION SELECT k FROM t EXCEPT SELECT 3 INTERSECT SELECT 1",
		"SELECT array_map(x -> x + 1, a), array_filter(x -> x > 1, a), size(a), array_sort(a) FROM t",
		"SELECT k, e FROM t LATERAL VIEW explode(a) x AS e",
		"SELECT CAST(s AS INT), CAST(j AS STRING), CAST('[1,2]' AS ARRAY<INT>), CAST(v AS JSON) FROM t",
		"SELECT json_extract(j, '$.a[0]'), json_parse('{\"x\": [1]}'), repeat(s, 3), lpad(s, 5, '*') FROM t",
		"SELECT k, CASE WHEN n > 10 THEN 'big' ELSE 'small' END, coalesce(n, -1), if(g = 1, n, NULL) FROM u",
		"SELECT g, k FROM u GROUP BY GROUPING SETS ((g), (k), ())",
		"SELECT count(DISTINCT g), collect_list(n), bitmap_count(bitmap_union(to_bitmap(k))) FROM u",
		"SELECT date_add(dt, INTERVAL 1 DAY), date_format(dt, '%Y'), unix_timestamp(dt) FROM t",
		"SELECT * FROM t, u LIMIT 3 OFFSET 1",
		"SELECT ipv4_to_ipv6(ip), inet_ntoa(inet_aton('1.2.3.4')) FROM t",
	} {
		f.Add(q)
	}
	e, err := Open(f.TempDir(), Options{Clock: clock.NewManual(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)), TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { e.Close() })
	s := e.NewSession("")
	for _, stmt := range fuzzSetup {
		if _, err := s.Execute(stmt); err != nil {
			f.Fatalf("%s: %v", stmt, err)
		}
	}
	f.Fuzz(func(t *testing.T, q string) {
		if len(q) > 4096 {
			return
		}
		stmts, err := sql.Parse(q)
		if err != nil || len(stmts) == 0 {
			return
		}
		for _, st := range stmts {
			if _, ok := st.(*sql.Select); !ok {
				return
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		// A query must stop soon after its context ends. The fuzzing
		// engine has no time limit per input: a hang would stall it
		// silently, so a watchdog crashes the worker, which records the
		// input.
		hang := time.AfterFunc(30*time.Second, func() {
			panic(fmt.Sprintf("query still running 28 s after its context ended: %q", q))
		})
		defer hang.Stop()
		if _, err := s.ExecuteContext(ctx, q); err != nil && testing.Verbose() {
			t.Log(err)
		}
	})
}
