package e2e

// Doris's transaction mode over the MySQL protocol with go-sql-driver and
// over the HTTP SQL endpoint: BEGIN / COMMIT / ROLLBACK on one connection,
// a dropped connection rolls back, START TRANSACTION (database/sql's
// Begin) does nothing, as in Doris.

import (
	"context"
	"database/sql"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

func TestMySQLTransactions(t *testing.T) {
	s, addr := startMySQLServer(t)
	ctx := context.Background()
	root := openDB(t, addr, "", "")
	mustExec(t, root, "CREATE DATABASE txn")
	db := openDB(t, addr, "txn", "")
	mustExec(t, db, "CREATE TABLE dt (id INT NOT NULL, name VARCHAR(50)) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1")
	mustExec(t, db, "CREATE TABLE dt2 LIKE dt")
	count := func(where string) string {
		t.Helper()
		rows, err := db.Query("SELECT count(*) FROM dt WHERE " + where)
		if err != nil {
			t.Fatal(err)
		}
		return scanStrings(t, rows)[0][0]
	}

	t.Run("commit", func(t *testing.T) {
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		mustExec(t, conn, "BEGIN WITH LABEL go_txn_1")
		for _, id := range []int{1, 2, 3} {
			if n, _ := mustExec(t, conn, "INSERT INTO dt VALUES (?, 'x')", id).RowsAffected(); n != 1 {
				t.Fatalf("INSERT affected %d rows, want 1", n)
			}
		}
		if got := count("id <= 3"); got != "0" {
			t.Fatalf("before COMMIT another connection sees %s rows, want 0", got)
		}
		_, err = conn.QueryContext(ctx, "SELECT 1")
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != 1105 || me.Message != "errCode = 2, detailMessage = This is in a transaction, only insert, update, delete, commit, rollback is acceptable." {
			t.Fatalf("SELECT in a transaction: %v", err)
		}
		mustExec(t, conn, "COMMIT")
		if got := count("id <= 3"); got != "3" {
			t.Fatalf("after COMMIT: %s rows, want 3", got)
		}
		rows, err := db.Query("SHOW TRANSACTION WHERE label = 'go_txn_1'")
		if err != nil {
			t.Fatal(err)
		}
		if got := scanStrings(t, rows); len(got) != 1 || got[0][3] != "VISIBLE" {
			t.Fatalf("SHOW TRANSACTION = %v, want one VISIBLE", got)
		}
	})

	t.Run("rollback", func(t *testing.T) {
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		mustExec(t, conn, "BEGIN")
		mustExec(t, conn, "INSERT INTO dt VALUES (10, 'a'), (11, 'b')")
		mustExec(t, conn, "ROLLBACK")
		if got := count("id >= 10"); got != "0" {
			t.Fatalf("after ROLLBACK: %s rows, want 0", got)
		}
	})

	t.Run("dropped connection", func(t *testing.T) {
		// A client that vanishes without COM_QUIT.
		var mu sync.Mutex
		var raw []net.Conn
		mysql.RegisterDialContext("droptcp", func(ctx context.Context, a string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, "tcp", a)
			mu.Lock()
			raw = append(raw, c)
			mu.Unlock()
			return c, err
		})
		d, err := sql.Open("mysql", "root:@droptcp("+addr+")/txn")
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		conn, err := d.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		mustExec(t, conn, "BEGIN WITH LABEL go_dropped_1")
		mustExec(t, conn, "INSERT INTO dt VALUES (20, 'gone')")
		mu.Lock()
		for _, c := range raw {
			c.Close()
		}
		mu.Unlock()
		_ = conn.Close()
		waitFor(t, func() bool {
			rows, err := db.Query("SHOW TRANSACTION WHERE label = 'go_dropped_1'")
			if err != nil {
				t.Fatal(err)
			}
			got := scanStrings(t, rows)
			return len(got) == 1 && got[0][3] == "ABORTED" && got[0][10] == "user rollback"
		})
		if got := count("id = 20"); got != "0" {
			t.Fatalf("after the connection dropped: %s rows, want 0", got)
		}
	})

	t.Run("database/sql Begin is START TRANSACTION", func(t *testing.T) {
		// Doris answers START TRANSACTION with OK and starts nothing: the
		// INSERT commits at once and Rollback undoes nothing.
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		mustExec(t, tx, "INSERT INTO dt VALUES (30, 'kept')")
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		if got := count("id = 30"); got != "1" {
			t.Fatalf("after tx.Rollback: %s rows, want 1 (Doris ignores START TRANSACTION)", got)
		}
		mustExec(t, db, "SET autocommit = 0")
	})

	t.Run("HTTP multi-statement body", func(t *testing.T) {
		s.exec("txn", "BEGIN; INSERT INTO dt VALUES (40, 'http'); INSERT INTO dt VALUES (41, 'http'); COMMIT")
		if got := count("id IN (40, 41)"); got != "2" {
			t.Fatalf("after BEGIN ... COMMIT over HTTP: %s rows, want 2", got)
		}
		// The request's session ends with the request: no COMMIT, no rows.
		s.exec("txn", "BEGIN; INSERT INTO dt VALUES (42, 'http')")
		if got := count("id = 42"); got != "0" {
			t.Fatalf("after BEGIN without COMMIT over HTTP: %s rows, want 0", got)
		}
		raw := string(s.post("txn", "BEGIN; INSERT INTO dt VALUES (43, 'x'); INSERT INTO dt2 VALUES (43, 'x')"))
		if !strings.Contains(raw, "Only one table can be inserted in one transaction.") {
			t.Fatalf("two tables in a VALUES transaction over HTTP: %s", raw)
		}
	})
}

// waitFor polls cond until it holds, for up to 10 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for i := 0; i < 200; i++ {
		if cond() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("condition not met within 10 s")
}
