package e2e

// End-to-end tests of the MySQL protocol with go-sql-driver/mysql: the text
// and binary (prepared) protocols, every type, multi-statements, sessions,
// time zones, errors and the limits.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// startMySQLServer runs loadgw with the MySQL protocol on a free port and
// returns it with that address.
func startMySQLServer(t *testing.T, flags ...string) (*server, string) {
	t.Helper()
	addr := freeAddr(t)
	s := startServer(t, buildBinary(t), t.TempDir(), append([]string{"--mysql-addr", addr}, flags...)...)
	return s, addr
}

// openDB opens a go-sql-driver pool on addr with extra DSN parameters.
func openDB(t *testing.T, addr, db, params string) *sql.DB {
	t.Helper()
	dsn := fmt.Sprintf("root:@tcp(%s)/%s?%s", addr, db, params)
	d, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func mustExec(t *testing.T, db interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, q string, args ...any) sql.Result {
	t.Helper()
	r, err := db.ExecContext(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return r
}

// scanStrings reads every row as strings ("NULL" for NULL).
func scanStrings(t *testing.T, rows *sql.Rows) [][]string {
	t.Helper()
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = "NULL"
			if v.Valid {
				row[i] = v.String
			}
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

const allTypesDDL = `CREATE TABLE all_types (
  k INT, b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, li LARGEINT,
  f FLOAT, d DOUBLE, dc DECIMAL(10, 3), dt DATE, dtm DATETIME(3), c CHAR(5),
  vc VARCHAR(20), s STRING, j JSON
) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`

const allTypesRow = `(1, true, -8, 300, -70000, 9000000000, 170141183460469231731687303715884105727,
  1.5, 2.25, 12.345, '2024-02-29', '2024-02-29 23:59:58.123', 'ab', 'héllo', 'long text', '{"a":1}')`

// wantAllTypes is the row in Doris's text forms, the same in both
// protocols.
var wantAllTypes = []string{"1", "1", "-8", "300", "-70000", "9000000000", "170141183460469231731687303715884105727",
	"1.5", "2.25", "12.345", "2024-02-29", "2024-02-29 23:59:58.123", "ab", "héllo", "long text", `{"a":1}`}

func TestMySQLDriver(t *testing.T) {
	_, addr := startMySQLServer(t)
	root := openDB(t, addr, "", "multiStatements=true")
	mustExec(t, root, "CREATE DATABASE e2e")
	db := openDB(t, addr, "e2e", "multiStatements=true")
	mustExec(t, db, allTypesDDL)
	mustExec(t, db, "INSERT INTO all_types VALUES "+allTypesRow+", (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)")

	t.Run("text protocol", func(t *testing.T) {
		rows, err := db.Query("SELECT * FROM all_types ORDER BY k")
		if err != nil {
			t.Fatal(err)
		}
		checkAllTypes(t, scanStrings(t, rows))
	})
	t.Run("binary protocol", func(t *testing.T) {
		stmt, err := db.Prepare("SELECT * FROM all_types WHERE k >= ? ORDER BY k")
		if err != nil {
			t.Fatal(err)
		}
		defer stmt.Close()
		// The first execute goes through the protocol library; the next
		// ones are answered on the connection's read path (fastexec.go).
		for range 3 {
			rows, err := stmt.Query(1)
			if err != nil {
				t.Fatal(err)
			}
			checkAllTypes(t, scanStrings(t, rows))
		}
	})
	t.Run("column types", func(t *testing.T) { checkColumnTypes(t, db) })
	t.Run("prepared parameters", func(t *testing.T) { checkParameters(t, db) })
	t.Run("multi statements", func(t *testing.T) { checkMultiStatements(t, db) })
	t.Run("sessions", func(t *testing.T) { checkSessions(t, db) })
	t.Run("time zones", func(t *testing.T) { checkTimeZones(t, addr) })
	t.Run("errors", func(t *testing.T) { checkDriverErrors(t, addr, db) })
	t.Run("connector/j start-up", func(t *testing.T) { checkConnectorJ(t, db) })
}

// connectorJStartup is what Connector/J 8 sends after the login
// (NativeSession.loadServerVariables), comment included.
const connectorJStartup = "/* mysql-connector-j-8.0.33 (Revision: 7d6b0800528b6b25c68b52dc10d6c1c8429c100c) */" +
	"SELECT  @@session.auto_increment_increment AS auto_increment_increment, @@character_set_client AS character_set_client, " +
	"@@character_set_connection AS character_set_connection, @@character_set_results AS character_set_results, " +
	"@@character_set_server AS character_set_server, @@collation_server AS collation_server, " +
	"@@collation_connection AS collation_connection, @@init_connect AS init_connect, " +
	"@@interactive_timeout AS interactive_timeout, @@license AS license, @@lower_case_table_names AS lower_case_table_names, " +
	"@@max_allowed_packet AS max_allowed_packet, @@net_write_timeout AS net_write_timeout, " +
	"@@performance_schema AS performance_schema, @@query_cache_size AS query_cache_size, " +
	"@@query_cache_type AS query_cache_type, @@sql_mode AS sql_mode, @@system_time_zone AS system_time_zone, " +
	"@@time_zone AS time_zone, @@transaction_isolation AS transaction_isolation, @@wait_timeout AS wait_timeout"

func checkConnectorJ(t *testing.T, db *sql.DB) {
	rows, err := db.Query(connectorJStartup)
	if err != nil {
		t.Fatal(err)
	}
	got := scanStrings(t, rows)
	if len(got) != 1 || len(got[0]) != 21 {
		t.Fatalf("start-up query: %q", got)
	}
	if got[0][0] != "1" || got[0][1] != "utf8mb4" || got[0][11] != "16777216" || got[0][17] != "UTC" || got[0][20] != "28800" {
		t.Errorf("start-up values %q", got[0])
	}
	for _, q := range []string{"SET NAMES utf8mb4", "SET character_set_results = NULL", "SET autocommit=1",
		"SELECT @@session.transaction_read_only", "SHOW WARNINGS",
		"SHOW VARIABLES WHERE Variable_name = 'language' OR Variable_name = 'net_write_timeout'"} {
		if _, err := db.Exec(q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
}

func checkAllTypes(t *testing.T, got [][]string) {
	t.Helper()
	if len(got) != 2 {
		t.Fatalf("got %d rows, want 2", len(got))
	}
	if strings.Join(got[0], "|") != strings.Join(wantAllTypes, "|") {
		t.Errorf("row 1:\n got %q\nwant %q", got[0], wantAllTypes)
	}
	for i, v := range got[1][1:] {
		if v != "NULL" {
			t.Errorf("row 2 column %d = %q, want NULL", i+2, v)
		}
	}
}

// checkColumnTypes checks the column definitions Doris sends
// (MysqlSerializer.writeField) as the driver reports them.
func checkColumnTypes(t *testing.T, db *sql.DB) {
	rows, err := db.Query("SELECT * FROM all_types LIMIT 0")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ct := range cts {
		s := ct.Name() + ":" + ct.DatabaseTypeName()
		if p, sc, ok := ct.DecimalSize(); ok {
			s += fmt.Sprintf("(%d,%d)", p, sc)
		}
		got = append(got, s)
	}
	// FLOAT and DOUBLE carry decimals 31 (MySQL's NOT_FIXED_DEC), which
	// the driver reports as an unbounded size.
	const free = "(9223372036854775807,9223372036854775807)"
	want := "k:INT b:TINYINT ti:TINYINT si:SMALLINT i:INT bi:BIGINT li:CHAR f:FLOAT" + free + " d:DOUBLE" + free + " dc:DECIMAL(10,3) " +
		"dt:DATE dtm:DATETIME(3,3) c:CHAR vc:CHAR s:TEXT j:JSON"
	if strings.Join(got, " ") != want {
		t.Errorf("column types:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

// checkParameters binds every kind of parameter of the binary protocol.
func checkParameters(t *testing.T, db *sql.DB) {
	when := time.Date(2025, 1, 2, 3, 4, 5, 678000000, time.UTC)
	mustExec(t, db, "INSERT INTO all_types (k, b, bi, d, dc, dt, dtm, vc, s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
		3, false, int64(-9000000000), 0.125, "-1.5", "2025-01-02", when, "it's \\ ok", nil)
	rows, err := db.Query("SELECT k, b, bi, d, dc, dt, dtm, vc, s FROM all_types WHERE k = ? AND vc = ?", 3, "it's \\ ok")
	if err != nil {
		t.Fatal(err)
	}
	got := scanStrings(t, rows)
	want := "3|0|-9000000000|0.125|-1.500|2025-01-02|2025-01-02 03:04:05.678|it's \\ ok|NULL"
	if len(got) != 1 || strings.Join(got[0], "|") != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// A '?' inside a string or comment is no parameter.
	var s string
	if err := db.QueryRow("SELECT concat('?', ?) /* ? */", "x").Scan(&s); err != nil || s != "?x" {
		t.Errorf("got %q, %v; want ?x", s, err)
	}
}

func checkMultiStatements(t *testing.T, db *sql.DB) {
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.QueryContext(ctx, "SELECT 1 AS a; SET time_zone = '+01:00'; SELECT 'x' AS b, 2 AS c")
	if err != nil {
		t.Fatal(err)
	}
	var sets []string
	for {
		var got []string
		for rows.Next() {
			cols, _ := rows.Columns()
			vals := make([]string, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			got = append(got, strings.Join(vals, ","))
		}
		sets = append(sets, strings.Join(got, ";"))
		if !rows.NextResultSet() {
			break
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if got := strings.Join(sets, " | "); got != "1 | x,2" {
		t.Errorf("result sets %q, want %q", got, "1 | x,2")
	}
	var tz string
	if err := conn.QueryRowContext(ctx, "SELECT @@time_zone").Scan(&tz); err != nil || tz != "+01:00" {
		t.Errorf("time_zone after the multi-statement = %q, %v; want +01:00", tz, err)
	}
	// A syntax error anywhere runs nothing.
	_, err = conn.ExecContext(ctx, "INSERT INTO all_types (k) VALUES (50); SELEC 1")
	if err == nil {
		t.Fatal("a multi-statement with a syntax error succeeded")
	}
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM all_types WHERE k = 50").Scan(&n); err != nil || n != 0 {
		t.Errorf("rows of k=50: %d, %v; want 0", n, err)
	}
	r := mustExec(t, conn, "INSERT INTO all_types (k) VALUES (51), (52); INSERT INTO all_types (k) VALUES (53)")
	if got, _ := r.RowsAffected(); got != 1 { // the driver reports the last statement's
		t.Errorf("rows affected %d, want 1", got)
	}
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM all_types WHERE k BETWEEN 51 AND 53").Scan(&n); err != nil || n != 3 {
		t.Errorf("rows of k=51..53: %d, %v; want 3", n, err)
	}
}

// checkSessions checks that session state is per connection.
func checkSessions(t *testing.T, db *sql.DB) {
	ctx := context.Background()
	a, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	mustExec(t, a, "SET sql_select_limit = 1")
	count := func(c *sql.Conn) int {
		rows, err := c.QueryContext(ctx, "SELECT k FROM all_types")
		if err != nil {
			t.Fatal(err)
		}
		return len(scanStrings(t, rows))
	}
	if na, nb := count(a), count(b); na != 1 || nb < 2 {
		t.Errorf("rows with sql_select_limit=1 on a: %d (want 1), on b: %d (want all)", na, nb)
	}
	var db1, db2 sql.NullString
	mustExec(t, a, "USE information_schema")
	_ = a.QueryRowContext(ctx, "SELECT @@version").Scan(&db1)
	if err := b.QueryRowContext(ctx, "SELECT count(*) FROM all_types").Scan(&db2); err != nil {
		t.Errorf("USE on one connection changed another's database: %v", err)
	}
}

// checkTimeZones checks the session time zone set by the DSN and by SET,
// and DATETIME scanned into time.Time in the driver's loc.
func checkTimeZones(t *testing.T, addr string) {
	db := openDB(t, addr, "e2e", "time_zone=%27Asia%2FShanghai%27&parseTime=true&loc=Asia%2FShanghai")
	var tz string
	var epoch string
	if err := db.QueryRow("SELECT @@time_zone, CAST(from_unixtime(0) AS STRING)").Scan(&tz, &epoch); err != nil {
		t.Fatal(err)
	}
	if tz != "Asia/Shanghai" || epoch != "1970-01-01 08:00:00" {
		t.Errorf("got %q %q, want Asia/Shanghai 1970-01-01 08:00:00", tz, epoch)
	}
	var dtm time.Time
	if err := db.QueryRow("SELECT dtm FROM all_types WHERE k = ?", 1).Scan(&dtm); err != nil {
		t.Fatal(err)
	}
	shanghai, _ := time.LoadLocation("Asia/Shanghai")
	if want := time.Date(2024, 2, 29, 23, 59, 58, 123000000, shanghai); !dtm.Equal(want) {
		t.Errorf("dtm = %v, want %v", dtm, want)
	}
}

func checkDriverErrors(t *testing.T, addr string, db *sql.DB) {
	_, err := db.Exec("SELECT * FROM no_such_table")
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1105 || string(me.SQLState[:]) != "HY000" ||
		!strings.HasPrefix(me.Message, "errCode = 2, detailMessage = ") {
		t.Errorf("unknown table: %#v, want 1105 HY000 errCode = 2, detailMessage = ...", err)
	}
	dsnBad, _ := sql.Open("mysql", fmt.Sprintf("root:wrong@tcp(%s)/", addr))
	defer dsnBad.Close()
	err = dsnBad.Ping()
	if !errors.As(err, &me) || me.Number != 1045 || me.Message != "Access denied for user 'root@127.0.0.1' (using password: YES)" {
		t.Errorf("wrong password: %v", err)
	}
	unknownDB, _ := sql.Open("mysql", fmt.Sprintf("root:@tcp(%s)/nodb", addr))
	defer unknownDB.Close()
	err = unknownDB.Ping()
	if !errors.As(err, &me) || me.Number != 1049 || me.Message != "errCode = 2, detailMessage = Unknown database 'nodb'" {
		t.Errorf("unknown database at connect: %v", err)
	}
}

// TestMySQLLimits checks the connection limit, the packet size limit and
// the idle timeout.
func TestMySQLLimits(t *testing.T) {
	_, addr := startMySQLServer(t, "--max-mysql-connections", "2", "--mysql-max-packet-bytes", "4096", "--mysql-wait-timeout", "1s")
	ctx := context.Background()
	db := openDB(t, addr, "", "")
	c1, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	third, _ := sql.Open("mysql", fmt.Sprintf("root:@tcp(%s)/", addr))
	defer third.Close()
	err = third.Ping()
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1203 || me.Message != "Reach limit of connections. Total: 2, User: 2, Current: 2" {
		t.Errorf("third connection: %v, want 1203 Reach limit of connections", err)
	}
	// A request over max_allowed_packet ends its connection with 1153.
	_, err = c1.ExecContext(ctx, "SELECT '"+strings.Repeat("x", 8192)+"'")
	if !errors.As(err, &me) || me.Number != 1153 {
		t.Errorf("8 KiB statement with a 4 KiB limit: %v, want error 1153", err)
	}
	c1.Close()
	// A connection silent for longer than wait_timeout is closed.
	time.Sleep(1500 * time.Millisecond)
	if _, err := c2.ExecContext(ctx, "SELECT 1"); err == nil {
		t.Error("a connection idle past wait_timeout still answered")
	}
	c2.Close()
	if err := third.Ping(); err != nil {
		t.Errorf("a connection after the others closed: %v", err)
	}
}
