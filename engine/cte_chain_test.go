package engine

import (
	"fmt"
	"strings"
	"testing"
)

// withChain is a WITH of n CTEs, each defined on its own (independent) or
// on the one before it, and a SELECT of the last.
func withChain(n int, dependent bool) string {
	var b strings.Builder
	b.WriteString("WITH c0 AS (SELECT 0 AS x)")
	for i := 1; i < n; i++ {
		if dependent {
			fmt.Fprintf(&b, ", c%d AS (SELECT x + 1 AS x FROM c%d)", i, i-1)
		} else {
			fmt.Fprintf(&b, ", c%d AS (SELECT %d AS x)", i, i)
		}
	}
	fmt.Fprintf(&b, " SELECT x FROM c%d", n-1)
	return b.String()
}

// TestWithManyCTEs: a WITH of 20,000 CTEs plans (the duplicate name check
// is one pass, not one per CTE) and answers; a name defined twice is
// still refused.
func TestWithManyCTEs(t *testing.T) {
	e, err := Open(t.TempDir(), Options{TimeZone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession("")
	res, err := s.Execute(withChain(20000, false))
	if err != nil || len(res.Rows) != 1 || res.Rows[0][0].I != 19999 {
		t.Fatalf("20,000 CTEs: %v %v", res, err)
	}
	_, err = s.Execute(withChain(20000, false) + " UNION ALL (WITH a AS (SELECT 1 AS x), A AS (SELECT 2 AS x) SELECT x FROM a)")
	if err == nil || err.Error() != "CTE name [a] cannot be used more than once." {
		t.Fatalf("a name defined twice: %v", err)
	}
}

// BenchmarkWithChain plans and runs WITH chains of 20,000 CTEs.
func BenchmarkWithChain(b *testing.B) {
	e, err := Open(b.TempDir(), Options{TimeZone: "UTC"})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession("")
	for _, dep := range []bool{false, true} {
		q := withChain(20000, dep)
		b.Run(fmt.Sprintf("dependent=%v", dep), func(b *testing.B) {
			b.SetBytes(int64(len(q)))
			b.ReportAllocs()
			for range b.N {
				if _, err := s.Execute(q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
