package engine

import (
	"fmt"
	"strings"
	"testing"

	"loadgw/sql"
	"loadgw/types"
)

// TestJoinBuildNarrowed checks that a hash join's build rows hold only
// the columns read above the scans: under one memory bound, the join that
// reads every column of the built table spills, the same join reading a
// few of them (the wide note only in the scan's own filter) stays in
// memory, and both give the answer of the join without a bound.
func TestJoinBuildNarrowed(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	var part, li strings.Builder
	for p := range 200 {
		if p > 0 {
			part.WriteString(", ")
		}
		// a note of 200 bytes, green for every fourth part
		color := "red"
		if p%4 == 0 {
			color = "green"
		}
		fmt.Fprintf(&part, "(%d, '%s %s', %d, '%s', %d.50)", p, color, strings.Repeat("x", 190), p%7, strings.Repeat("y", 100), p)
	}
	for i := range 1000 {
		if i > 0 {
			li.WriteString(", ")
		}
		fmt.Fprintf(&li, "(%d, %d, %d)", i, i%200, i%13)
	}
	for _, q := range []string{
		"CREATE DATABASE d",
		"CREATE TABLE d.part (pk INT, note VARCHAR(300), brand INT, filler VARCHAR(200), price DECIMAL(15, 2)) DUPLICATE KEY(pk) DISTRIBUTED BY HASH(pk) BUCKETS 1",
		"CREATE TABLE d.li (id INT, pk INT, q INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1",
		"INSERT INTO d.part VALUES " + part.String(),
		"INSERT INTO d.li VALUES " + li.String(),
	} {
		if _, err := s.Execute(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s = e.NewSession("d")
	// The 50 green parts are built (the smaller side): whole, each row
	// is about 24 + 5*48 + 200 + 100 bytes, 28 KB in all; narrowed to
	// pk, brand and price, 50 * (24 + 3*48) = 8.4 KB.
	wide := "SELECT count(*), sum(q * brand), sum(price), sum(length(note)), sum(length(filler)) FROM li JOIN part ON part.pk = li.pk WHERE note LIKE 'green%'"
	narrow := "SELECT count(*), sum(q * brand), sum(price) FROM li JOIN part ON part.pk = li.pk WHERE note LIKE 'green%'"
	run := func(q, mem string) (string, bool) {
		t.Helper()
		if _, err := s.Execute("SET exec_mem_limit = " + mem); err != nil {
			t.Fatal(err)
		}
		files := e.SpillFiles()
		res, err := s.Execute(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return strings.TrimSpace(formatResult(res)), e.SpillFiles() > files
	}
	const bound = "16384"
	wantWide, _ := run(wide, "DEFAULT")
	wantNarrow, _ := run(narrow, "DEFAULT")
	if !strings.Contains(wantWide, "250 | ") {
		t.Fatalf("unexpected answer %q", wantWide)
	}
	got, spilled := run(wide, bound)
	if !spilled || got != wantWide {
		t.Errorf("all columns read: spilled %v (want true), answer %q, want %q", spilled, got, wantWide)
	}
	got, spilled = run(narrow, bound)
	if spilled || got != wantNarrow {
		t.Errorf("three columns read: spilled %v (want false), answer %q, want %q", spilled, got, wantNarrow)
	}
	if _, err := s.Execute("SET exec_mem_limit = DEFAULT"); err != nil {
		t.Fatal(err)
	}
}

// TestJoinProbeColumnsLive checks that a hash join copies into its joined
// rows only the probe side's columns read above the scans: the probe
// table's column that only its own pushed filter reads (note) is NULL in
// the join's rows, the columns read above (q, and the key pk) hold the
// probe row's values, and the answer is the one without the join order.
func TestJoinProbeColumnsLive(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	var li strings.Builder
	for i := range 300 {
		if i > 0 {
			li.WriteString(", ")
		}
		fmt.Fprintf(&li, "(%d, %d, %d, '%s')", i, i%20, i%13, []string{"keep", "drop"}[i%3/2])
	}
	for _, q := range []string{
		"CREATE DATABASE d",
		"CREATE TABLE d.part (pk INT, brand INT, price DECIMAL(15, 2)) DUPLICATE KEY(pk) DISTRIBUTED BY HASH(pk) BUCKETS 1",
		"CREATE TABLE d.li (id INT, pk INT, q INT, note VARCHAR(10)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1",
		"INSERT INTO d.part SELECT number, number % 7, number + 0.5 FROM numbers('number' = '20')",
		"INSERT INTO d.li VALUES " + li.String(),
	} {
		if _, err := s.Execute(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s = e.NewSession("d")
	const q = "SELECT count(*), sum(li.q * part.price), sum(li.pk) FROM li JOIN part ON part.pk = li.pk WHERE li.note = 'keep' AND part.brand < 3"
	res, err := s.Execute(q)
	if err != nil {
		t.Fatal(err)
	}
	// the answer of the same rows paired by a nested loop (no keys)
	want, err := s.Execute("SELECT count(*), sum(li.q * part.price), sum(li.pk) FROM li JOIN part ON part.pk + 0 <= li.pk AND part.pk + 0 >= li.pk WHERE li.note = 'keep' AND part.brand < 3")
	if err != nil {
		t.Fatal(err)
	}
	if got, w := formatResult(res), formatResult(want); got != w || !strings.Contains(got, "\n") {
		t.Errorf("answer %q, want %q", got, w)
	}

	stmts, err := sql.Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	st, qp, err := s.planPinned(stmts[0].(*sql.Select))
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	var jn *joinNode
	var walk func(n relNode)
	walk = func(n relNode) {
		if j, ok := n.(*joinNode); ok && jn == nil {
			jn = j
		}
		_, kids := n.explain(false)
		for _, k := range kids {
			walk(k)
		}
	}
	walk(qp.root)
	if jn == nil || len(jn.lkeys) == 0 {
		t.Fatal("no hash join in the plan")
	}
	probe := jn.left
	if jn.buildSide() == "left" {
		probe = jn.right
	}
	if probe.cols()[0].Table != "li" {
		t.Fatalf("li is not the probe side: build %s, left %s", jn.buildSide(), jn.left.cols()[0].Table)
	}
	slot := map[string]int{}
	for i, c := range jn.cols() {
		slot[c.Table+"."+c.Name] = i
	}
	rows := 0
	err = jn.run(&execCtx{s: s, ctx: st.ctx, st: st}, func(row []types.Value) (bool, error) {
		rows++
		if v := row[slot["li.note"]]; !v.IsNull() {
			t.Errorf("li.note (read only by li's filter) is %v in a joined row, want NULL", v)
			return false, nil
		}
		for _, c := range []string{"li.q", "li.pk", "part.price", "part.pk"} {
			if row[slot[c]].IsNull() {
				t.Errorf("%s is NULL in a joined row", c)
				return false, nil
			}
		}
		if row[slot["li.pk"]].I != row[slot["part.pk"]].I {
			t.Errorf("joined row of li.pk %d with part.pk %d", row[slot["li.pk"]].I, row[slot["part.pk"]].I)
		}
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rows == 0 {
		t.Error("the join output no rows")
	}
}

// TestReorderProjectionLive checks that the projection putting a join
// order's columns back in FROM order copies only the columns read above
// the scans: the column only a scan's own filter reads is NULL in its
// rows, the columns read above hold their values, and the answer is the
// one of the same query in FROM order.
func TestReorderProjectionLive(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	for _, q := range []string{
		"CREATE DATABASE d",
		"CREATE TABLE d.li (id INT, pk INT, ok INT, q INT, note VARCHAR(10)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1",
		"CREATE TABLE d.part (pk INT, brand INT, kind VARCHAR(10)) DUPLICATE KEY(pk) DISTRIBUTED BY HASH(pk) BUCKETS 1",
		"CREATE TABLE d.ord (ok INT, prio INT) DUPLICATE KEY(ok) DISTRIBUTED BY HASH(ok) BUCKETS 1",
		"INSERT INTO d.li SELECT number, number % 50, number % 80, number % 13, if(number % 3 = 0, 'keep', 'drop') FROM numbers('number' = '2000')",
		"INSERT INTO d.part SELECT number, number % 7, if(number % 5 = 0, 'steel', 'tin') FROM numbers('number' = '50')",
		"INSERT INTO d.ord SELECT number, number % 4 FROM numbers('number' = '80')",
	} {
		if _, err := s.Execute(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s = e.NewSession("d")
	const q = "SELECT count(*), sum(li.q * part.brand), sum(ord.prio) FROM li, ord, part WHERE li.pk = part.pk AND li.ok = ord.ok AND li.note = 'keep' AND part.kind = 'steel'"
	res, err := s.Execute(q)
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.Execute("SELECT count(*), sum(li.q * part.brand), sum(ord.prio) FROM li JOIN ord ON li.ok + 0 <= ord.ok AND li.ok + 0 >= ord.ok JOIN part ON li.pk + 0 <= part.pk AND li.pk + 0 >= part.pk WHERE li.note = 'keep' AND part.kind = 'steel'")
	if err != nil {
		t.Fatal(err)
	}
	if got, w := formatResult(res), formatResult(want); got != w || strings.Contains(got, "| 0 |") {
		t.Errorf("answer %q, want %q", got, w)
	}

	stmts, err := sql.Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	st, qp, err := s.planPinned(stmts[0].(*sql.Select))
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	var pn *projectNode
	var walk func(n relNode)
	walk = func(n relNode) {
		if p, ok := n.(*projectNode); ok && p.reorder && pn == nil {
			pn = p
		}
		_, kids := n.explain(false)
		for _, k := range kids {
			walk(k)
		}
	}
	walk(qp.root)
	if pn == nil {
		plan, _ := s.Execute("EXPLAIN " + q)
		t.Fatalf("no join order projection in the plan:\n%s", formatResult(plan))
	}
	slot := map[string]int{}
	for i, c := range pn.cols() {
		slot[c.Table+"."+c.Name] = i
	}
	// the projection copies the 7 columns read above the scans, not the
	// filter-only ones nor those nothing reads (li.id, part's and ord's
	// others): the joins below leave them NULL already
	copied := map[int]bool{}
	for _, c := range pn.reorderCopies() {
		copied[c[0]] = true
	}
	if len(copied) != 7 || copied[slot["li.note"]] || copied[slot["part.kind"]] || copied[slot["li.id"]] || !copied[slot["ord.prio"]] {
		t.Errorf("the projection copies %d columns %v, want the 7 read above the scans (slots %v)", len(copied), copied, slot)
	}
	rows := 0
	err = pn.run(&execCtx{s: s, ctx: st.ctx, st: st}, func(row []types.Value) (bool, error) {
		rows++
		for _, c := range []string{"li.note", "part.kind"} {
			if v := row[slot[c]]; !v.IsNull() {
				t.Errorf("%s (read only by its scan's filter) is %v in a row, want NULL", c, v)
				return false, nil
			}
		}
		for _, c := range []string{"li.q", "li.pk", "li.ok", "part.brand", "part.pk", "ord.prio", "ord.ok"} {
			if row[slot[c]].IsNull() {
				t.Errorf("%s is NULL in a row", c)
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rows == 0 {
		t.Error("no rows")
	}
}
