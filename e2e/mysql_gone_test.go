package e2e

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"
)

// TestMySQLClientGone: a MySQL client that goes away in the middle of a
// long query (a 10^12-row nested-loop join, hours of work) stops it, as an
// HTTP client does: the server notices the closed socket, ends the query
// and closes the connection, so the only connection slot
// (--max-mysql-connections 1) is free again within seconds, long before
// query_timeout (900 s). The connection has run other commands before.
func TestMySQLClientGone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the loadgw binary")
	}
	s, addr := startMySQLServer(t, "--max-mysql-connections", "1")
	s.exec("information_schema", "CREATE DATABASE g")
	s.exec("g", "CREATE TABLE d (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	s.exec("g", "INSERT INTO d VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)")
	s.exec("g", "CREATE TABLE big (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	s.exec("g", "INSERT INTO big SELECT a.k * 1000 + b.k * 100 + c.k * 10 + e.k FROM d a, d b, d c, d e")

	db := openDB(t, addr, "g", "")
	db.SetMaxIdleConns(0)
	heavy := "SELECT count(*) FROM big a, big b, big c WHERE a.k + b.k + c.k < ?"
	for _, args := range [][]any{
		nil, // the text protocol (COM_QUERY)
		{0}, // a prepared statement (COM_STMT_EXECUTE)
	} {
		q := heavy
		if args == nil {
			q = strings.Replace(heavy, "?", "0", 1)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		conn := waitConn(t, db)
		// Quick commands first: the connection's one watch is armed and
		// disarmed by each, and must still be armed for the long one.
		for range 3 {
			if err := conn.QueryRowContext(context.Background(), "SELECT 1").Scan(new(int)); err != nil {
				t.Fatal(err)
			}
		}
		// go-sql-driver closes the connection when the context ends.
		_, err := conn.QueryContext(ctx, q, args...)
		cancel()
		if err == nil {
			t.Fatalf("%s answered within 500 ms", q)
		}
		conn.Close()
		// The slot frees once the query stopped; a new connection gets in.
		c := waitConn(t, db)
		if err := c.QueryRowContext(context.Background(), "SELECT 1").Scan(new(int)); err != nil {
			t.Fatal(err)
		}
		c.Close()
	}
}

// waitConn opens a connection of db, waiting up to 10 s while the server
// refuses it for the connection limit (a closed connection's slot frees
// once the server has noticed the close).
func waitConn(t *testing.T, db *sql.DB) *sql.Conn {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := db.Conn(context.Background())
		if err == nil {
			return c
		}
		if !strings.Contains(err.Error(), "Reach limit of connections") || time.Now().After(deadline) {
			t.Fatalf("no connection within 10 s: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
