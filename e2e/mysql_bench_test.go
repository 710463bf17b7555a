package e2e

import (
	"database/sql"
	"fmt"
	"net"
	"testing"
	"time"

	"loadgw/engine"
	"loadgw/mysqlwire"
	"loadgw/storage"
)

// benchMySQL serves the MySQL protocol over a loopback listener in this
// process, on a store without fsync, and returns a go-sql-driver pool of
// database bench.
func benchMySQL(b *testing.B) *sql.DB {
	b.Helper()
	e, err := engine.Open(b.TempDir(), engine.Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := mysqlwire.New(e, mysqlwire.Options{})
	go func() { _ = srv.Serve(ln) }()
	b.Cleanup(func() {
		srv.Close()
		_ = e.Close()
	})
	root, err := sql.Open("mysql", "root:@tcp("+ln.Addr().String()+")/")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := root.Exec("CREATE DATABASE bench"); err != nil {
		b.Fatal(err)
	}
	root.Close()
	db, err := sql.Open("mysql", "root:@tcp("+ln.Addr().String()+")/bench")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// loadUniqueSQL creates table as a Unique Key table of n rows over db.
func loadUniqueSQL(b *testing.B, db *sql.DB, table string, n int) {
	b.Helper()
	loadUniqueRows(b, table, n, func(stmt string) error {
		_, err := db.Exec(stmt)
		return err
	})
}

// BenchmarkPointLookupMySQL runs the prepared statement
// SELECT * FROM t WHERE k = ? (the full unique key) with random keys from 2
// concurrent connections over the MySQL protocol (binary protocol,
// go-sql-driver), on Unique Key tables of 1,000 and 100,000 rows.
func BenchmarkPointLookupMySQL(b *testing.B) {
	const clients = 2
	db := benchMySQL(b)
	db.SetMaxOpenConns(clients)
	db.SetMaxIdleConns(clients)
	for _, n := range []int{1_000, 100_000} {
		table := fmt.Sprintf("t%d", n)
		loaded := false
		b.Run(fmt.Sprintf("rows=%d/clients=%d", n, clients), func(b *testing.B) {
			// Loaded at the first run, so that a -bench filter that skips
			// this table skips its load too.
			if !loaded {
				loadUniqueSQL(b, db, table, n)
				loaded = true
			}
			stmt, err := db.Prepare("SELECT * FROM " + table + " WHERE k = ?")
			if err != nil {
				b.Fatal(err)
			}
			defer stmt.Close()
			cpu, allocs, sched := processCPU(), processAllocs(), schedEvents()
			defer func() {
				b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/q")
				b.ReportMetric(float64(processAllocs()-allocs)/float64(b.N), "allocs/q")
				b.ReportMetric((schedEvents()-sched)/float64(b.N), "sched/q")
			}()
			runPointLookups(b, clients, n, func() func(int64) error {
				var k, v int64
				var s string
				return func(want int64) error {
					err := stmt.QueryRow(want).Scan(&k, &v, &s)
					if err == nil && k != want {
						err = fmt.Errorf("k = %d: got row %d", want, k)
					}
					return err
				}
			})
		})
	}
}

// BenchmarkSelectStreamMySQL reads SELECT * of a 1,000,000-row table
// through one MySQL connection (text protocol), every row scanned.
func BenchmarkSelectStreamMySQL(b *testing.B) {
	const n = 1_000_000
	db := benchMySQL(b)
	start := time.Now()
	loadUniqueSQL(b, db, "big", n)
	b.Logf("loaded %d rows in %v", n, time.Since(start))
	b.ResetTimer()
	cpu := processCPU()
	for range b.N {
		rows, err := db.Query("SELECT * FROM big")
		if err != nil {
			b.Fatal(err)
		}
		var k, v int64
		var s sql.RawBytes
		got := 0
		for rows.Next() {
			if err := rows.Scan(&k, &v, &s); err != nil {
				b.Fatal(err)
			}
			got++
		}
		if err := rows.Err(); err != nil {
			b.Fatal(err)
		}
		rows.Close()
		if got != n {
			b.Fatalf("got %d rows, want %d", got, n)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(processCPU()-cpu)/float64(n*b.N), "cpu-ns/row")
}
