package tpch

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
)

// Compare checks got against want, the reference answer (PostgreSQL's).
// Cells that both parse as numbers are equal when they differ by at most one
// unit in the last printed place of the less precise one if both have
// decimal places (databases print averages and quotients to different
// scales), or by a relative 1e-12; other cells must be equal as text. Both
// must hold the same rows; with orderKeys (the result columns of the
// query's ORDER BY, OrderKeys), in an order that gives the same sequence of
// those columns, so rows that tie on them may come in any order. Column
// names are not compared: Doris names an unaliased sum(x) "sum(x)",
// PostgreSQL "sum". It returns "" when they match, else what differs.
func Compare(want, got *Result, orderKeys []int) string {
	if len(want.Rows) != len(got.Rows) {
		return fmt.Sprintf("%d rows, want %d%s", len(got.Rows), len(want.Rows), firstRows(want, got))
	}
	inOrder := compareRows(want.Rows, got.Rows)
	if inOrder == "" {
		return ""
	}
	if d := compareRows(sortedRows(want.Rows), sortedRows(got.Rows)); d != "" {
		if orderKeys != nil {
			return inOrder
		}
		return d
	}
	if orderKeys == nil {
		return ""
	}
	if d := compareRows(project(want.Rows, orderKeys), project(got.Rows, orderKeys)); d != "" {
		return "the same rows in another order: " + inOrder
	}
	return "" // rows that tie on the ORDER BY columns came in another order
}

// project returns the cells of rows in columns cols (skipping columns a row
// does not have, which compareRows has already reported).
func project(rows [][]string, cols []int) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		for _, c := range cols {
			if c < len(r) {
				out[i] = append(out[i], r[c])
			}
		}
	}
	return out
}

func firstRows(want, got *Result) string {
	var b strings.Builder
	if len(want.Rows) > 0 {
		fmt.Fprintf(&b, "; first wanted row %s", rowText(want.Rows[0]))
	}
	if len(got.Rows) > 0 {
		fmt.Fprintf(&b, "; first row %s", rowText(got.Rows[0]))
	}
	return b.String()
}

func sortedRows(rows [][]string) [][]string {
	s := slices.Clone(rows)
	slices.SortFunc(s, func(a, b []string) int { return slices.Compare(a, b) })
	return s
}

func compareRows(want, got [][]string) string {
	for i := range want {
		if len(want[i]) != len(got[i]) {
			return fmt.Sprintf("row %d has %d columns, want %d", i+1, len(got[i]), len(want[i]))
		}
		for j := range want[i] {
			if !CellsEqual(want[i][j], got[i][j]) {
				return fmt.Sprintf("row %d column %d: %s, want %s (row %s, want %s)",
					i+1, j+1, cellDisplay(got[i][j]), cellDisplay(want[i][j]), rowText(got[i]), rowText(want[i]))
			}
		}
	}
	return ""
}

func cellDisplay(c string) string {
	if c == Null {
		return "NULL"
	}
	return fmt.Sprintf("%q", c)
}

func rowText(row []string) string {
	parts := make([]string, len(row))
	for i, c := range row {
		parts[i] = cellDisplay(c)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// CellsEqual compares two cells as Compare does.
func CellsEqual(a, b string) bool {
	if a == b {
		return true
	}
	if a == Null || b == Null {
		return false
	}
	x, okx := new(big.Rat).SetString(a)
	y, oky := new(big.Rat).SetString(b)
	if !okx || !oky {
		return false
	}
	diff := new(big.Rat).Sub(x, y)
	diff.Abs(diff)
	if places := min(scale(a), scale(b)); places > 0 {
		ulp := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(places)), nil))
		if diff.Cmp(ulp) <= 0 {
			return true
		}
	}
	// Relative to the larger magnitude.
	m := new(big.Rat).Abs(x)
	if ay := new(big.Rat).Abs(y); ay.Cmp(m) > 0 {
		m = ay
	}
	return diff.Cmp(m.Mul(m, big.NewRat(1, 1e12))) <= 0
}

// scale is the number of digits after the decimal point of a number's
// text, taking an exponent into account ("1.5E+3" has none).
func scale(s string) int {
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		fmt.Sscan(s[i+1:], &exp)
		s = s[:i]
	}
	digits := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		digits = len(s) - i - 1
	}
	return max(0, digits-exp)
}
