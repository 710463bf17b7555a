package sql

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzSeeds are the inputs of the testdata scripts: each paragraph minus its
// command line and expected output.
func fuzzSeeds(t testing.TB) []string {
	files, err := filepath.Glob("../testdata/sql/*")
	if err != nil {
		t.Fatal(err)
	}
	var seeds []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, para := range strings.Split(string(data), "\n\n") {
			_, rest, ok := strings.Cut(para, "\n")
			input, _, _ := strings.Cut(rest, "\n----")
			if ok && input != "" {
				seeds = append(seeds, input)
			}
		}
	}
	return seeds
}

// FuzzParse checks that Parse never panics, that it fails only with a
// *SyntaxError or a type/literal error, and that whatever it accepts
// round-trips through Format.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	for _, s := range deepSeeds(true) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		stmts, err := Parse(sql)
		if err != nil {
			var se *SyntaxError
			if errors.As(err, &se) && (se.Offset < 0 || se.Offset > len(sql)) {
				t.Fatalf("error offset %d outside input of %d bytes", se.Offset, len(sql))
			}
			return
		}
		for _, s := range stmts {
			sp := s.Source()
			if sp.Start < 0 || sp.Start > sp.End || sp.End > len(sql) {
				t.Fatalf("bad span %v for input of %d bytes", sp, len(sql))
			}
		}
		checkRoundTrip(t, stmts)
	})
}

// FuzzParseExpr does the same for standalone expressions.
func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{"a + 1 > b AND c IS NULL", "cast(x as datetime(6))", "k1 IN (1, 'a')"} {
		f.Add(s)
	}
	for _, s := range deepSeeds(false) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if e, err := ParseExpr(s); err == nil {
			checkExprRoundTrip(t, e)
		}
	})
}

// deepSeeds nest parentheses one level past what the lexer accepts, as a
// statement or as an expression. Seeds near expr.MaxDepth are left out on
// purpose: their mutations parse into trees that round-trip through
// thousands of nested parentheses, tens of milliseconds a run, which cut
// the fuzzer's throughput a hundredfold when tried. TestNestingAtLimit and
// TestDeepestTreesRoundTrip cover those depths instead.
func deepSeeds(stmts bool) []string {
	s := strings.Repeat("(", maxParens+1) + "1" + strings.Repeat(")", maxParens+1)
	if stmts {
		s = "SELECT " + s
	}
	return []string{s}
}

var benchSelect = `SELECT k1, k2, sum(v1) AS s, max(v2) FROM db.tbl
WHERE k1 >= 10 AND k2 IN ('a', 'b', 'c') AND dt BETWEEN '2024-01-01' AND '2024-01-31'
GROUP BY k1, k2 HAVING sum(v1) > 100 ORDER BY s DESC LIMIT 100`

func benchInsert(rows int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO db.tbl (k1, k2, v1, v2, dt) VALUES ")
	for i := 0; i < rows; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(%d, 'key-%d', %d.25, NULL, '2024-01-%02d 10:00:00')", i, i, i*7, i%28+1)
	}
	return b.String()
}

func BenchmarkParseSelect(b *testing.B) {
	benchmarkParse(b, benchSelect)
}

func BenchmarkParseInsert100(b *testing.B) {
	benchmarkParse(b, benchInsert(100))
}

func benchmarkParse(b *testing.B, sql string) {
	b.SetBytes(int64(len(sql)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(sql); err != nil {
			b.Fatal(err)
		}
	}
}
