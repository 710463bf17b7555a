package tpch

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var testTables struct {
	once  sync.Once
	data  map[string][][]string
	files map[string][]byte
}

// tables generates every table at scale factor 0.01 (once for all tests)
// and splits the rows into fields.
func tables(t testing.TB) map[string][][]string {
	t.Helper()
	testTables.once.Do(func() { testTables.data, testTables.files = generateTables(t, 0.01, 1) })
	if testTables.data == nil {
		t.Fatal("the generation failed in an earlier test")
	}
	return testTables.data
}

// generateTables returns the rows and the files of every table.
func generateTables(t testing.TB, sf float64, seed uint64) (map[string][][]string, map[string][]byte) {
	t.Helper()
	g, err := New(Options{ScaleFactor: sf, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	out, files := map[string][][]string{}, map[string][]byte{}
	for _, table := range Tables {
		var b bytes.Buffer
		if err := g.Write(table, &b); err != nil {
			t.Fatal(err)
		}
		files[table] = b.Bytes()
		cols, _ := Columns(table)
		for i, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
			f := strings.Split(line, "|")
			if len(f) != len(cols)+1 || f[len(cols)] != "" {
				t.Fatalf("%s row %d has %d fields and no trailing '|', want %d: %q", table, i+1, len(f)-1, len(cols), line)
			}
			out[table] = append(out[table], f[:len(cols)])
		}
	}
	return out, files
}

func atoi(t testing.TB, s string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("not an integer: %q", s)
	}
	return v
}

// cents reads a decimal with two places.
func cents(t testing.TB, s string) int64 {
	t.Helper()
	whole, frac, ok := strings.Cut(s, ".")
	if !ok || len(frac) != 2 {
		t.Fatalf("not a decimal with two places: %q", s)
	}
	v := atoi(t, strings.TrimPrefix(whole, "-"))*100 + atoi(t, frac)
	if strings.HasPrefix(s, "-") {
		v = -v
	}
	return v
}

// keySet checks that column col of rows is unique and returns its values.
func keySet(t *testing.T, table string, rows [][]string, cols ...int) map[string]bool {
	t.Helper()
	set := map[string]bool{}
	for _, r := range rows {
		var k []string
		for _, c := range cols {
			k = append(k, r[c])
		}
		key := strings.Join(k, "|")
		if set[key] {
			t.Fatalf("%s: key %s repeats", table, key)
		}
		set[key] = true
	}
	return set
}

func TestCardinalities(t *testing.T) {
	data := tables(t)
	want := map[string]int{"region": 5, "nation": 25, "supplier": 100, "customer": 1500, "part": 2000, "partsupp": 8000, "orders": 15000}
	for table, n := range want {
		if got := len(data[table]); got != n {
			t.Errorf("%s: %d rows, want %d", table, got, n)
		}
	}
	// 1 to 7 lines per order: 4 on average.
	if n := float64(len(data["lineitem"])) / 15000; n < 3.9 || n > 4.1 {
		t.Errorf("lineitem: %.2f lines per order, want about 4", n)
	}
	g, _ := New(Options{ScaleFactor: 1})
	for table, n := range map[string]int64{"supplier": 10_000, "customer": 150_000, "part": 200_000, "partsupp": 800_000, "orders": 1_500_000, "lineitem": -1} {
		if got := g.Rows(table); got != n {
			t.Errorf("SF 1 %s: Rows() = %d, want %d", table, got, n)
		}
	}
}

func TestReferentialIntegrity(t *testing.T) {
	data := tables(t)
	region := keySet(t, "region", data["region"], 0)
	nation := keySet(t, "nation", data["nation"], 0)
	supplier := keySet(t, "supplier", data["supplier"], 0)
	customer := keySet(t, "customer", data["customer"], 0)
	part := keySet(t, "part", data["part"], 0)
	partsupp := keySet(t, "partsupp", data["partsupp"], 0, 1)
	orders := keySet(t, "orders", data["orders"], 0)
	keySet(t, "lineitem", data["lineitem"], 0, 3)
	refs := []struct {
		table string
		col   int
		to    map[string]bool
	}{
		{"nation", 2, region}, {"supplier", 3, nation}, {"customer", 3, nation},
		{"partsupp", 0, part}, {"partsupp", 1, supplier}, {"orders", 1, customer},
		{"lineitem", 0, orders}, {"lineitem", 1, part}, {"lineitem", 2, supplier},
	}
	for _, r := range refs {
		for _, row := range data[r.table] {
			if !r.to[row[r.col]] {
				t.Fatalf("%s %v: column %d = %s references nothing", r.table, row[0], r.col+1, row[r.col])
			}
		}
	}
	for _, row := range data["lineitem"] {
		if !partsupp[row[1]+"|"+row[2]] {
			t.Fatalf("lineitem %s/%s: part %s is not supplied by supplier %s", row[0], row[3], row[1], row[2])
		}
	}
	for _, row := range data["orders"] {
		if atoi(t, row[1])%3 == 0 {
			t.Fatalf("order %s: customer %s, whose key is divisible by 3, must place no orders", row[0], row[1])
		}
	}
}

// TestLineitemsAndOrders checks the rules tying lines to their order:
// numbering, dates, flags, status and total price.
func TestLineitemsAndOrders(t *testing.T) {
	data := tables(t)
	price := map[string]int64{}
	for _, p := range data["part"] {
		price[p[0]] = cents(t, p[7])
	}
	type agg struct {
		lines, open int
		total       int64
	}
	perOrder := map[string]*agg{}
	for _, l := range data["lineitem"] {
		a := perOrder[l[0]]
		if a == nil {
			a = &agg{}
			perOrder[l[0]] = a
		}
		a.lines++
		if got := atoi(t, l[3]); got != int64(a.lines) {
			t.Fatalf("order %s: line number %d, want %d", l[0], got, a.lines)
		}
		qty, ext, disc, tax := cents(t, l[4]), cents(t, l[5]), cents(t, l[6]), cents(t, l[7])
		if qty < 100 || qty > 5000 || qty%100 != 0 || ext != qty/100*price[l[1]] || disc < 0 || disc > 10 || tax < 0 || tax > 8 {
			t.Fatalf("line %v: quantity, price, discount or tax out of range", l)
		}
		a.total += (ext*(100+tax)*(100-disc) + 5000) / 10000
		ship, commit, receipt := l[10], l[11], l[12]
		if !(receipt > ship) || commit < "1992-01-31" || receipt > "1998-12-31" {
			t.Fatalf("line %v: dates out of order or range", l)
		}
		wantFlag := map[bool]string{true: "N", false: "RA"}[receipt > "1995-06-17"]
		wantStatus := map[bool]string{true: "O", false: "F"}[ship > "1995-06-17"]
		if !strings.Contains(wantFlag, l[8]) || l[9] != wantStatus {
			t.Fatalf("line %v: return flag %s or line status %s against the dates", l, l[8], l[9])
		}
		if l[9] == "O" {
			a.open++
		}
		if !slices.Contains(instructions, l[13]) || !slices.Contains(shipModes, l[14]) {
			t.Fatalf("line %v: instruction or mode outside the lists", l)
		}
	}
	for _, o := range data["orders"] {
		a := perOrder[o[0]]
		if a == nil || a.lines > 7 {
			t.Fatalf("order %s has %v lines", o[0], a)
		}
		status := "P"
		if a.open == 0 {
			status = "F"
		} else if a.open == a.lines {
			status = "O"
		}
		if o[2] != status || cents(t, o[3]) != a.total {
			t.Fatalf("order %v: status %s total %s, want %s %d", o[0], o[2], o[3], status, a.total)
		}
		if o[4] < "1992-01-01" || o[4] > "1998-08-02" || !slices.Contains(priorities, o[5]) || o[7] != "0" {
			t.Fatalf("order %v: date, priority or ship priority out of range", o)
		}
	}
}

// TestValueLists checks the columns the queries filter on and the shares
// their predicates select.
func TestValueLists(t *testing.T) {
	data := tables(t)
	phone := regexp.MustCompile(`^(\d\d)-\d{3}-\d{3}-\d{4}$`)
	for _, table := range []string{"supplier", "customer"} {
		for _, r := range data[table] {
			m := phone.FindStringSubmatch(r[4])
			if m == nil || atoi(t, m[1]) != atoi(t, r[3])+10 {
				t.Fatalf("%s %s: phone %s does not start with nation %s + 10", table, r[0], r[4], r[3])
			}
			if b := cents(t, r[5]); b < -99999 || b > 999999 {
				t.Fatalf("%s %s: balance %s out of range", table, r[0], r[5])
			}
		}
	}
	for _, c := range data["customer"] {
		if !slices.Contains(segments, c[6]) || c[1] != fmt.Sprintf("Customer#%09s", c[0]) {
			t.Fatalf("customer %v: segment or name", c)
		}
	}
	green := 0
	for _, p := range data["part"] {
		words := strings.Split(p[1], " ")
		if len(words) != 5 || len(slices.Compact(slices.Sorted(slices.Values(words)))) != 5 {
			t.Fatalf("part %s: name %q is not five distinct words", p[0], p[1])
		}
		if strings.Contains(p[1], "green") {
			green++
		}
		m := strings.TrimPrefix(p[2], "Manufacturer#")
		if !strings.HasPrefix(p[3], "Brand#"+m) || len(p[3]) != 8 {
			t.Fatalf("part %s: brand %s of manufacturer %s", p[0], p[3], p[2])
		}
		ty := strings.Split(p[4], " ")
		ct := strings.Split(p[6], " ")
		if len(ty) != 3 || !slices.Contains(typeSyllable1, ty[0]) || !slices.Contains(typeSyllable3, ty[2]) ||
			len(ct) != 2 || !slices.Contains(containerSyllable2, ct[1]) {
			t.Fatalf("part %s: type %q or container %q", p[0], p[4], p[6])
		}
		if size := atoi(t, p[5]); size < 1 || size > 50 {
			t.Fatalf("part %s: size %d", p[0], size)
		}
	}
	// Query 9's '%green%': 5 of 92 words.
	if share := float64(green) / 2000; share < 0.04 || share > 0.07 {
		t.Errorf("%.3f of the parts are green, want about 5/92", share)
	}
	complaints := regexp.MustCompile(`Customer.*Complaints`)
	n := 0
	for _, s := range data["supplier"] {
		if complaints.MatchString(s[6]) {
			n++
		}
	}
	if n == 0 {
		t.Error("no supplier comment holds Customer...Complaints (query 16)")
	}
	// Query 13's '%special%requests%' leaves out about 1% of the orders.
	special := regexp.MustCompile(`special.*requests`)
	n = 0
	for _, o := range data["orders"] {
		if special.MatchString(o[8]) {
			n++
		}
	}
	if share := float64(n) / 15000; share < 0.002 || share > 0.05 {
		t.Errorf("%.4f of the order comments match special...requests, want about 0.01", share)
	}
}

func TestDeterministic(t *testing.T) {
	gen := func(seed uint64) []byte {
		g, err := New(Options{ScaleFactor: 0.01, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := g.Write("orders", &b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	if a, b := gen(7), gen(7); !bytes.Equal(a, b) {
		t.Error("the same seed gave different orders")
	}
	if a, b := gen(7), gen(8); bytes.Equal(a, b) {
		t.Error("different seeds gave the same orders")
	}
}

func TestOptions(t *testing.T) {
	for _, sf := range []float64{0.001, -1, 5000} {
		if _, err := New(Options{ScaleFactor: sf}); err == nil {
			t.Errorf("scale factor %v: no error", sf)
		}
	}
	g, err := New(Options{})
	if err != nil || g.Rows("orders") != 1_500_000 {
		t.Errorf("the zero Options are not scale factor 1: %v", err)
	}
	if err := g.Write("nope", &bytes.Buffer{}); err == nil {
		t.Error("an unknown table wrote")
	}
}
