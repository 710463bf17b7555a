package httpapi

import (
	"strings"
	"testing"
)

// TestQueryMetaComplexTypes pins the meta types of the HTTP SQL endpoint for
// Doris's complex columns. Doris sends ARRAY, MAP, STRUCT, IPV4 and IPV6 as
// MYSQL_TYPE_STRING with charset 33 (PrimitiveType.toMysqlType's default,
// MysqlSerializer.writeField), which the MariaDB driver behind
// StatementSubmitter names "CHAR" (java.sql.Types.CHAR); JSON and VARIANT
// go as MYSQL_TYPE_JSON, named "JSON".
func TestQueryMetaComplexTypes(t *testing.T) {
	srv := newTestServer(t)
	post(t, srv, "information_schema", `{"stmt": "CREATE DATABASE d"}`)
	post(t, srv, "d", `{"stmt": "CREATE TABLE c (k INT, a ARRAY<INT>, m MAP<STRING, INT>, s STRUCT<x: INT>, i4 IPV4, i6 IPV6, j JSON, v VARIANT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1; INSERT INTO c VALUES (1, [1, 2], {'a': 1}, named_struct('x', 3), '1.2.3.4', '::1', '{\"b\":2}', '{\"c\":3}')"}`)
	got := post(t, srv, "d", `{"stmt": "SELECT a, m, s, i4, i6, j, v FROM c"}`)
	want := `"meta": [{"name":"a","type":"CHAR"},{"name":"m","type":"CHAR"},{"name":"s","type":"CHAR"},{"name":"i4","type":"CHAR"},{"name":"i6","type":"CHAR"},{"name":"j","type":"JSON"},{"name":"v","type":"JSON"}],`
	if !strings.Contains(got, want) {
		t.Fatalf("SELECT answer:\n%s\nwant meta:\n%s", got, want)
	}
	// The values are strings in Doris's text forms (StringCodec).
	want = `["[1, 2]","{\"a\":1}","{\"x\":3}","1.2.3.4","::1","{\"b\":2}","{\"c\":3}"]`
	if !strings.Contains(got, want) {
		t.Fatalf("SELECT answer:\n%s\nwant row:\n%s", got, want)
	}
}
