package mysqlwire

import (
	"testing"

	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"

	"loadgw/sql"
)

// TestBindNumericParamIsOneLiteral: the binary protocol sends a DECIMAL
// parameter as text the client chose (MYSQL_TYPE_NEWDECIMAL is a
// length-encoded string). Bound into the statement it must stay one
// literal: a value that is not a number must not add SQL to the statement
// (before, "0; DROP DATABASE d" ran a second statement).
func TestBindNumericParamIsOneLiteral(t *testing.T) {
	for _, tc := range []struct {
		q    string
		typ  querypb.Type
		val  string
		want string
	}{
		{"", sqltypes.Decimal, "12.50", "SELECT 12.50"},
		// Before, 1--1: a comment that swallowed the rest of the statement.
		{"SELECT 1-? AND k = 2", sqltypes.Int64, "-1", "SELECT 1- -1 AND k = 2"},
		{"", sqltypes.Decimal, "-1e3", "SELECT -1e3"},
		{"", sqltypes.Decimal, "0; DROP DATABASE d", `SELECT '0; DROP DATABASE d'`},
		{"", sqltypes.Decimal, "1) OR (1", `SELECT '1) OR (1'`},
		{"", sqltypes.Decimal, "", `SELECT ''`},
		{"", sqltypes.Int64, "7", "SELECT 7"},
		{"", sqltypes.Int64, "7 UNION SELECT 8", `SELECT '7 UNION SELECT 8'`},
		{"", sqltypes.Float64, "1.5e-7", "SELECT 1.5e-7"},
		{"", sqltypes.VarChar, "it's", `SELECT 'it\'s'`},
	} {
		q := "SELECT ?"
		if tc.q != "" {
			q = tc.q
		}
		got, err := bind(q, placeholders(q), map[string]*querypb.BindVariable{"v1": {Type: tc.typ, Value: []byte(tc.val)}})
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%v %q bound as %s, want %s", tc.typ, tc.val, got, tc.want)
		}
		stmts, err := sql.Parse(got)
		if err != nil || len(stmts) != 1 {
			t.Errorf("%s: %d statements, %v", got, len(stmts), err)
		}
	}
}

// FuzzBindParam: whatever type and bytes a client sends as a parameter,
// the bound statement is still the one statement prepared.
func FuzzBindParam(f *testing.F) {
	f.Add(int32(sqltypes.Decimal), []byte("1.5"))
	f.Add(int32(sqltypes.VarChar), []byte("a'b\\"))
	f.Add(int32(sqltypes.Int64), []byte("1; SELECT 2"))
	f.Fuzz(func(t *testing.T, typ int32, val []byte) {
		q := "SELECT ? FROM t WHERE k = ?"
		v := &querypb.BindVariable{Type: querypb.Type(typ), Value: val}
		got, err := bind(q, placeholders(q), map[string]*querypb.BindVariable{"v1": v, "v2": v})
		if err != nil {
			return
		}
		stmts, err := sql.Parse(got)
		if err == nil && len(stmts) != 1 {
			t.Fatalf("%s: %d statements", got, len(stmts))
		}
		if err == nil {
			if _, ok := stmts[0].(*sql.Select); !ok {
				t.Fatalf("%s: not a SELECT", got)
			}
		}
	})
}
