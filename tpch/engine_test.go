package tpch

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"loadgw/engine"
	"loadgw/errorlog"
	"loadgw/httpapi"
	"loadgw/labels"
	"loadgw/loadtxn"
)

// startLoadgw serves loadgw's HTTP API in process on a temporary store.
func startLoadgw(t *testing.T) *Client {
	t.Helper()
	dir := t.TempDir()
	eng, err := engine.Open(filepath.Join(dir, "data"), engine.Options{TimeZone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	txns, err := labels.Open(eng.Store(), eng.Clock(), labels.Options{})
	if err != nil {
		t.Fatal(err)
	}
	elog, err := errorlog.New(errorlog.Options{Dir: filepath.Join(dir, "error_log")})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.New(eng, httpapi.Options{Loads: loadtxn.New(eng, txns, loadtxn.Options{}), ErrorLog: elog}))
	t.Cleanup(func() { srv.Close(); eng.Close() })
	return &Client{Base: srv.URL}
}

// TestQueriesOnLoadgw loads lineitem with Doris's DDL and the stream load
// of Doris's load script, and checks the single-table queries 1 and 6
// against answers computed here from the generated rows.
func TestQueriesOnLoadgw(t *testing.T) {
	c, lines := loadLineitem(t)
	ctx := context.Background()
	for q, want := range map[int]*Result{1: query1(t, lines), 6: query6(t, lines)} {
		text, _ := Query(q)
		got, err := c.Exec(ctx, "tpch", text)
		if err != nil {
			t.Fatalf("Q%d: %v", q, err)
		}
		if d := Compare(want, got, OrderKeys(q)); d != "" {
			t.Errorf("Q%d: %s", q, d)
		}
	}
}

// decimal formats n / 10^scale.
func decimal(n *big.Int, scale int) string {
	return new(big.Rat).SetFrac(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)).FloatString(scale)
}

// average formats sum / 10^scale / count to 10 places.
func average(sum *big.Int, scale int, count int64) string {
	r := new(big.Rat).SetFrac(sum, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
	return r.Quo(r, new(big.Rat).SetInt64(count)).FloatString(10)
}

func query1(t *testing.T, lines [][]string) *Result {
	type group struct {
		qty, base, disc, discPrice, charge big.Int
		n                                  int64
	}
	groups := map[string]*group{}
	for _, l := range lines {
		if l[10] > "1998-09-02" { // date '1998-12-01' - interval '90' day
			continue
		}
		key := l[8] + "|" + l[9]
		g := groups[key]
		if g == nil {
			g = &group{}
			groups[key] = g
		}
		qty, ext, disc, tax := cents(t, l[4]), cents(t, l[5]), cents(t, l[6]), cents(t, l[7])
		g.qty.Add(&g.qty, big.NewInt(qty))
		g.base.Add(&g.base, big.NewInt(ext))
		g.disc.Add(&g.disc, big.NewInt(disc))
		g.discPrice.Add(&g.discPrice, big.NewInt(ext*(100-disc)))
		g.charge.Add(&g.charge, big.NewInt(ext*(100-disc)*(100+tax)))
		g.n++
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range groups {
			if !yield(k) {
				return
			}
		}
	})
	res := &Result{}
	for _, k := range keys {
		g := groups[k]
		flag, status, _ := strings.Cut(k, "|")
		res.Rows = append(res.Rows, []string{flag, status, decimal(&g.qty, 2), decimal(&g.base, 2),
			decimal(&g.discPrice, 4), decimal(&g.charge, 6), average(&g.qty, 2, g.n),
			average(&g.base, 2, g.n), average(&g.disc, 2, g.n), fmt.Sprint(g.n)})
	}
	if len(res.Rows) != 4 {
		t.Fatalf("Q1 over the generated rows has %d groups, want 4 (A F, N F, N O, R F)", len(res.Rows))
	}
	return res
}

func query6(t *testing.T, lines [][]string) *Result {
	var sum big.Int
	for _, l := range lines {
		qty, ext, disc := cents(t, l[4]), cents(t, l[5]), cents(t, l[6])
		if l[10] >= "1994-01-01" && l[10] < "1995-01-01" && disc >= 5 && disc <= 7 && qty < 2400 {
			sum.Add(&sum, big.NewInt(ext*disc))
		}
	}
	return &Result{Rows: [][]string{{decimal(&sum, 4)}}}
}

// loadLineitem starts loadgw, creates lineitem with Doris's DDL (its
// indexes too) and stream loads the generated lineitem rows into it,
// returning the client and those rows.
func loadLineitem(t *testing.T) (*Client, [][]string) {
	c := startLoadgw(t)
	ctx := context.Background()
	if _, err := c.Exec(ctx, "information_schema", "CREATE DATABASE tpch"); err != nil {
		t.Fatal(err)
	}
	for _, s := range DorisDDL() {
		if strings.Contains(s, "TABLE lineitem") {
			if _, err := c.Exec(ctx, "tpch", s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	}
	lines := tables(t)["lineitem"] // generates testTables.files too
	if err := c.StreamLoad(ctx, "tpch", "lineitem", "", bytes.NewReader(testTables.files["lineitem"])); err != nil {
		t.Fatal(err)
	}
	return c, lines
}
