package engine

import (
	"testing"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// TestExactKeyFollowsLiteral runs one parse tree of a point query with
// the literals a prepared statement may put into it, one after the other:
// a plan kept with exact key literals must read each run's value, and a
// value the key type does not hold exactly (a string, a decimal, NULL)
// must get the answer the planner gives, not a lookup of a stale key.
func TestExactKeyFollowsLiteral(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	for _, q := range []string{
		"CREATE DATABASE p",
		"USE p",
		"CREATE TABLE u (k BIGINT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
		"INSERT INTO u VALUES (1, 10), (2, 20), (3, 30)",
	} {
		if _, err := s.Execute(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	stmts, err := sql.Parse("SELECT * FROM u WHERE k = 1")
	if err != nil {
		t.Fatal(err)
	}
	lit := stmts[0].(*sql.Select).Where.(*expr.Binary).R.(*expr.Literal)
	for _, c := range []struct {
		val  types.Value
		typ  types.Type
		same string // the text query whose answer this run must give
	}{
		{types.NewInt(types.BigInt, 1), types.Type{Kind: types.BigInt}, "SELECT * FROM u WHERE k = 1"},
		{types.NewString(types.Varchar, "2"), types.Type{Kind: types.Varchar, Len: types.MaxVarcharLen}, "SELECT * FROM u WHERE k = '2'"},
		{types.NewInt(types.BigInt, 3), types.Type{Kind: types.BigInt}, "SELECT * FROM u WHERE k = 3"},
		{types.NewInt(types.BigInt, 4), types.Type{Kind: types.BigInt}, "SELECT * FROM u WHERE k = 4"},
		{types.NullValue, types.Type{Kind: types.Null}, "SELECT * FROM u WHERE k = NULL"},
		{types.NewInt(types.TinyInt, 2), types.Type{Kind: types.TinyInt}, "SELECT * FROM u WHERE k = 2"},
	} {
		lit.Val, lit.Type = c.val, c.typ
		got, gotErr := s.ExecuteParsed(stmts, "SELECT * FROM u WHERE k = ?")
		want, wantErr := s.plannedQuery(parseSelect(t, c.same))
		if g, w := describeResult(got, gotErr), describeResult(want, wantErr); g != w {
			t.Errorf("literal %v:\nprepared run:\n%s\nplanner (%s):\n%s", c.val, g, c.same, w)
		}
	}
}
