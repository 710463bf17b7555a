package expr

import (
	"testing"

	"loadgw/types"
)

// q1Scope is the lineitem columns TPC-H Q1 and Q6 compute with.
var q1Scope = &Scope{Columns: []Column{
	{Name: "l_extendedprice", Type: tDecimal(15, 2)},
	{Name: "l_discount", Type: tDecimal(15, 2)},
	{Name: "l_tax", Type: tDecimal(15, 2)},
	{Name: "l_shipdate", Type: tDate},
}}

func q1Rows() [][]types.Value {
	rows := make([][]types.Value, 1024)
	for i := range rows {
		rows[i] = []types.Value{
			types.NewDecimal(types.FromInt64(int64(90000+i*9733%10000000)), 2),
			types.NewDecimal(types.FromInt64(int64(i%11)), 2),
			types.NewDecimal(types.FromInt64(int64(i%9)), 2),
			types.NewDate(int64(8036 + i*7%2526)),
		}
	}
	return rows
}

func q1Col(n string) Expr { return &ColumnRef{Name: n} }

// BenchmarkQ1Charge evaluates Q1's
// `l_extendedprice * (1 - l_discount) * (1 + l_tax)` on DECIMAL(15,2).
func BenchmarkQ1Charge(b *testing.B) {
	one := lit(types.NewInt(types.TinyInt, 1), tTinyInt)
	benchEvalIn(b, q1Scope, q1Rows(), &Binary{Op: "*",
		L: &Binary{Op: "*", L: q1Col("l_extendedprice"), R: &Binary{Op: "-", L: one, R: q1Col("l_discount")}},
		R: &Binary{Op: "+", L: one, R: q1Col("l_tax")},
	})
}

// BenchmarkQ6Filter evaluates Q6's WHERE: a date range, a DECIMAL BETWEEN
// and a DECIMAL comparison.
func BenchmarkQ6Filter(b *testing.B) {
	and := func(l, r Expr) Expr { return &Binary{Op: "AND", L: l, R: r} }
	cmp := func(op string, l, r Expr) Expr { return &Binary{Op: op, L: l, R: r} }
	benchEvalIn(b, q1Scope, q1Rows(), and(and(and(
		cmp(">=", q1Col("l_shipdate"), lit(types.NewDate(8766), tDate)),
		cmp("<", q1Col("l_shipdate"), lit(types.NewDate(9131), tDate))),
		&Between{X: q1Col("l_discount"), Lo: decLit(5, 3, 2), Hi: decLit(7, 3, 2)}),
		cmp("<", q1Col("l_extendedprice"), decLit(2400000, 9, 2))))
}
