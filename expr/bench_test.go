package expr

import (
	"testing"
	"time"

	"loadgw/types"
)

// benchScope is `a INT, b VARCHAR(16)`.
var benchScope = &Scope{Columns: []Column{
	{Name: "a", Type: types.Type{Kind: types.Int}},
	{Name: "b", Type: types.Type{Kind: types.Varchar, Len: 16}},
}}

func benchRows() [][]types.Value {
	rows := make([][]types.Value, 1024)
	for i := range rows {
		s := "yz"
		if i%3 == 0 {
			s = "xyz"
		}
		rows[i] = []types.Value{types.NewInt(types.Int, int64(i%20)), types.NewString(types.Varchar, s)}
	}
	return rows
}

func benchEval(b *testing.B, e Expr) { benchEvalIn(b, benchScope, benchRows(), e) }

func benchEvalIn(b *testing.B, scope *Scope, rows [][]types.Value, e Expr) {
	b.Helper()
	c, err := Bind(e, scope)
	if err != nil {
		b.Fatal(err)
	}
	ctx := NewContext(time.UTC, time.Now())
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		v, err := c.Eval(rows[i%len(rows)], ctx)
		if err != nil {
			b.Fatal(err)
		}
		if v.I != 0 {
			n++
		}
	}
	_ = n
}

func lit(v types.Value, t types.Type) *Literal { return &Literal{Val: v, Type: t} }

// BenchmarkFilter evaluates `a > 10 AND b LIKE 'x%'`.
func BenchmarkFilter(b *testing.B) {
	benchEval(b, &Binary{Op: "AND",
		L: &Binary{Op: ">", L: &ColumnRef{Name: "a"}, R: lit(types.NewInt(types.BigInt, 10), tBigInt)},
		R: &Like{X: &ColumnRef{Name: "b"}, Pattern: lit(types.NewString(types.Varchar, "x%"), tVarchar)},
	})
}

// BenchmarkArithCompare evaluates `a + 1 > 10`.
func BenchmarkArithCompare(b *testing.B) {
	benchEval(b, &Binary{Op: ">",
		L: &Binary{Op: "+", L: &ColumnRef{Name: "a"}, R: lit(types.NewInt(types.BigInt, 1), tBigInt)},
		R: lit(types.NewInt(types.BigInt, 10), tBigInt),
	})
}

// BenchmarkFunc evaluates `length(b) > 2`.
func BenchmarkFunc(b *testing.B) {
	benchEval(b, &Binary{Op: ">",
		L: &Call{Name: "length", Args: []Expr{&ColumnRef{Name: "b"}}},
		R: lit(types.NewInt(types.BigInt, 2), tBigInt),
	})
}

func TestNoAllocFilter(t *testing.T) {
	c, err := Bind(&Binary{Op: "AND",
		L: &Binary{Op: ">", L: &ColumnRef{Name: "a"}, R: lit(types.NewInt(types.BigInt, 10), tBigInt)},
		R: &Like{X: &ColumnRef{Name: "b"}, Pattern: lit(types.NewString(types.Varchar, "x%"), tVarchar)},
	}, benchScope)
	if err != nil {
		t.Fatal(err)
	}
	rows := benchRows()
	ctx := NewContext(time.UTC, time.Now())
	allocs := testing.AllocsPerRun(100, func() {
		for _, r := range rows[:16] {
			if _, err := c.Eval(r, ctx); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Fatalf("filter allocates %v per 16 rows", allocs)
	}
}

func TestBitmapRoundTrip(t *testing.T) {
	s := EncodeBitmap([]uint32{5, 1, 5, 3})
	got := DecodeBitmap(s)
	if len(got) != 3 || got[0] != 1 || got[1] != 3 || got[2] != 5 {
		t.Fatalf("got %v", got)
	}
	if BitmapToString(s) != "1,3,5" || BitmapToString(EncodeBitmap(nil)) != "" {
		t.Fatalf("BitmapToString = %q", BitmapToString(s))
	}
}

// decScope is `d DECIMAL(10,2), l LARGEINT`.
var decScope = &Scope{Columns: []Column{
	{Name: "d", Type: tDecimal(10, 2)},
	{Name: "l", Type: tLargeInt},
}}

func decRows() [][]types.Value {
	rows := make([][]types.Value, 1024)
	for i := range rows {
		rows[i] = []types.Value{
			types.NewDecimal(types.FromInt64(int64(i*37-9000)), 2),
			types.NewLargeInt(types.FromInt64(int64(i) << 40)),
		}
	}
	return rows
}

func decLit(unscaled int64, p, s int) *Literal {
	return lit(types.NewDecimal(types.FromInt64(unscaled), s), tDecimal(p, s))
}

func benchDecimal(b *testing.B, e Expr) { benchEvalIn(b, decScope, decRows(), e) }

// BenchmarkDecimalArith evaluates `d * 1.5 + 0.25 > 10.00`.
func BenchmarkDecimalArith(b *testing.B) {
	benchDecimal(b, &Binary{Op: ">",
		L: &Binary{Op: "+",
			L: &Binary{Op: "*", L: &ColumnRef{Name: "d"}, R: decLit(15, 2, 1)},
			R: decLit(25, 3, 2)},
		R: decLit(1000, 4, 2),
	})
}

// BenchmarkDecimalDiv evaluates `d / 3.0`.
func BenchmarkDecimalDiv(b *testing.B) {
	benchDecimal(b, &Binary{Op: "/", L: &ColumnRef{Name: "d"}, R: decLit(30, 2, 1)})
}

// BenchmarkDecimalRound evaluates `round(d, 1)`.
func BenchmarkDecimalRound(b *testing.B) {
	benchDecimal(b, &Call{Name: "round", Args: []Expr{&ColumnRef{Name: "d"}, lit(types.NewInt(types.TinyInt, 1), tTinyInt)}})
}

// BenchmarkLargeIntArith evaluates `l * 3 DIV 7`.
func BenchmarkLargeIntArith(b *testing.B) {
	benchDecimal(b, &Binary{Op: "DIV",
		L: &Binary{Op: "*", L: &ColumnRef{Name: "l"}, R: lit(types.NewInt(types.TinyInt, 3), tTinyInt)},
		R: lit(types.NewInt(types.TinyInt, 7), tTinyInt),
	})
}

// BenchmarkSumAvgDecimal folds d into SUM and AVG states.
func BenchmarkSumAvgDecimal(b *testing.B) {
	rows := decRows()
	sum, _, err := NewAggregate(&Call{Name: "sum"}, []types.Type{tDecimal(10, 2)})
	if err != nil {
		b.Fatal(err)
	}
	avg, _, err := NewAggregate(&Call{Name: "avg"}, []types.Type{tDecimal(10, 2)})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ss, as := sum.NewState(), avg.NewState()
		for _, r := range rows[:64] {
			_ = sum.Add(ss, r[:1])
			_ = avg.Add(as, r[:1])
		}
		_, _ = sum.Result(ss), avg.Result(as)
	}
}
