package spill

import (
	"math/rand"
	"os"
	"slices"
	"strings"
	"testing"

	"loadgw/types"
)

// TestSorter sorts random rows with budgets from none to a few rows, and
// checks the order (stable), that runs were written and that no file is
// left behind.
func TestSorter(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	cmp := func(a, b []types.Value) int { return types.Compare(a[0], b[0]) }
	for _, budget := range []int64{0, 1000, 5000, 1 << 20} {
		for _, n := range []int{0, 1, 10, 1000, 5000} {
			dir := t.TempDir()
			var rows [][]types.Value
			s := NewSorter(cmp, dir, budget)
			for i := 0; i < n; i++ {
				row := []types.Value{
					types.NewInt(types.BigInt, int64(rng.Intn(50))),
					types.NewInt(types.BigInt, int64(i)),
					types.NewString(types.Varchar, strings.Repeat("x", rng.Intn(20))),
					{Kind: types.Double, F: rng.Float64()},
				}
				rows = append(rows, row)
				if err := s.Add(row); err != nil {
					t.Fatal(err)
				}
			}
			slices.SortStableFunc(rows, cmp)
			var got [][]types.Value
			if err := s.Run(func(r []types.Value) (bool, error) {
				got = append(got, slices.Clone(r))
				return true, nil
			}); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(rows) {
				t.Fatalf("budget %d n %d: %d rows back", budget, n, len(got))
			}
			for i := range rows {
				if !slices.Equal(got[i], rows[i]) {
					t.Fatalf("budget %d n %d: row %d is %v, want %v", budget, n, i, got[i], rows[i])
				}
			}
			if budget == 1000 && n >= 1000 && s.Spilled < maxFanIn {
				t.Fatalf("budget %d n %d: only %d runs, the fan-in limit is not exercised", budget, n, s.Spilled)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Fatalf("budget %d n %d: %d files left", budget, n, len(ents))
			}
		}
	}
}

// TestSorterStopEarly: a consumer that stops leaves no files.
func TestSorterStopEarly(t *testing.T) {
	dir := t.TempDir()
	s := NewSorter(func(a, b []types.Value) int { return types.Compare(a[0], b[0]) }, dir, 100)
	for i := 0; i < 100; i++ {
		if err := s.Add([]types.Value{types.NewInt(types.BigInt, int64(100-i))}); err != nil {
			t.Fatal(err)
		}
	}
	var first int64
	if err := s.Run(func(r []types.Value) (bool, error) { first = r[0].I; return false, nil }); err != nil {
		t.Fatal(err)
	}
	if first != 1 {
		t.Fatalf("first row %d", first)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("%d files left", len(ents))
	}
}
