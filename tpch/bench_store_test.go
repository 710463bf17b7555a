package tpch

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"loadgw/engine"
	"loadgw/httpapi"
	"loadgw/storage"
)

// BenchmarkStoredQueries runs TPC-H queries in process against a loadgw
// data directory that already holds the tables (a `tpchbench --keep` run
// leaves one at <work>/loadgw-data), so a CPU profile shows only the
// queries:
//
//	TPCH_STORE=/tmp/w/loadgw-data TPCH_QUERIES=1,6 go test ./tpch -run '^$' \
//	    -bench StoredQueries -benchtime 3x -cpuprofile /tmp/q.prof
//
// TPCH_ANSWERS, when set, is a directory of PostgreSQL answers
// (q<N>.postgres.tsv, as tpchbench --keep writes them); each query's answer
// is then checked against it. TPCH_CACHE_BYTES, when set, is the store's
// block cache size (storage's default of 128 MiB otherwise; the server's
// is 20% of memory), to see what a cache holding the tables saves a query
// run more than once (-benchtime 3x).
// Without TPCH_STORE the benchmark is skipped.
func BenchmarkStoredQueries(b *testing.B) {
	dir := os.Getenv("TPCH_STORE")
	if dir == "" {
		b.Skip("TPCH_STORE is not set: no loadgw data directory with the TPC-H tables")
	}
	opts := storage.Options{NoSync: true}
	if v := os.Getenv("TPCH_CACHE_BYTES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			b.Fatalf("TPCH_CACHE_BYTES: %q is not a positive number of bytes", v)
		}
		opts.CacheBytes = n
	}
	eng, err := engine.Open(dir, engine.Options{TimeZone: "UTC", Storage: opts})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.New(eng, httpapi.Options{}))
	b.Cleanup(func() { srv.Close(); eng.Close() })
	c := &Client{Base: srv.URL}
	for _, q := range benchQueries(b) {
		text, err := Query(q)
		if err != nil {
			b.Fatal(err)
		}
		want := readAnswer(b, q)
		b.Run(fmt.Sprintf("Q%d", q), func(b *testing.B) {
			for b.Loop() {
				got, err := c.Exec(context.Background(), "tpch", text)
				if err != nil {
					b.Fatalf("Q%d: %v", q, err)
				}
				if want != nil {
					if d := Compare(want, got, OrderKeys(q)); d != "" {
						b.Fatalf("Q%d: %s", q, d)
					}
				}
			}
		})
	}
}

// benchQueries reads TPCH_QUERIES (a comma-separated list; all 22 when unset).
func benchQueries(b *testing.B) []int {
	s := os.Getenv("TPCH_QUERIES")
	if s == "" {
		s = "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22"
	}
	var qs []int
	for _, f := range strings.Split(s, ",") {
		q, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || q < 1 || q > 22 {
			b.Fatalf("TPCH_QUERIES: %q is not a query number 1..22", f)
		}
		qs = append(qs, q)
	}
	return qs
}

// readAnswer reads PostgreSQL's answer to q from TPCH_ANSWERS, or nil.
func readAnswer(b *testing.B, q int) *Result {
	dir := os.Getenv("TPCH_ANSWERS")
	if dir == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("q%d.postgres.tsv", q)))
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	res := &Result{Columns: strings.Split(lines[0], "\t")}
	for _, l := range lines[1:] {
		res.Rows = append(res.Rows, strings.Split(l, "\t"))
	}
	return res
}
