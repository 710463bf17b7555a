package upsert_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// mrow is a row of the model: k, a, b, c, seq; a nil pointer is NULL. Column
// a is an ARRAY<BIGINT> holding [a, -a], so nested values go through every
// path of the model (partial rows, sequence, spill).
type mrow struct {
	a    *int64
	b    *string
	c    int64
	seq  *int64
	del  bool
	have [5]bool // provided columns of a partial row: k, a, b, c, seq
	// hasH: the hidden sequence column holds hseq rather than seq's value
	// (a fixed partial update read it from a deleted version, and left
	// seq at its default).
	hasH bool
	hseq *int64
}

// seqVal is the row's hidden sequence value, which sequence comparisons
// read.
func (r mrow) seqVal() *int64 {
	if r.hasH {
		return r.hseq
	}
	return r.seq
}

// newModelTable builds table t of the model tests, a Unique Key table
// with props: k, a, b (default 'd'), c (NOT NULL default 0), seq.
func (s *testStore) newModelTable(props map[string]string) *catalog.Table {
	b := column("b", types.Type{Kind: types.Varchar, Len: 8})
	b.Default = &catalog.Default{Kind: catalog.DefaultLiteral, Text: "d"}
	c := column("c", typ(types.BigInt))
	c.Nullable, c.Default = false, &catalog.Default{Kind: catalog.DefaultLiteral, Text: "0"}
	return s.newTable("t", catalog.UniqueKeys, 1, props,
		column("k", typ(types.BigInt)), column("a", types.ArrayOf(typ(types.BigInt), false)), b, c, column("seq", typ(types.BigInt)))
}

// aValue is the value of column a for model value v: [v, -v].
func aValue(v int64) types.Value {
	t := types.ArrayOf(typ(types.BigInt), false)
	return types.Nested{Type: t, Elems: []types.Value{types.NewInt(types.BigInt, v), types.NewInt(types.BigInt, -v)}}.Encode()
}

// drawFlexibleHave draws the columns a flexible partial row provides: a
// delete provides the key and perhaps the sequence column only.
func drawFlexibleHave(rt *rapid.T, del, withSeq bool) [5]bool {
	if del {
		return [5]bool{true, false, false, false, withSeq && rapid.Bool().Draw(rt, "hs")}
	}
	return [5]bool{true, rapid.Bool().Draw(rt, "ha"), rapid.Bool().Draw(rt, "hb"), rapid.Bool().Draw(rt, "hc"), withSeq && rapid.Bool().Draw(rt, "hs")}
}

// drawRowValues draws the values of r: a (or NULL), b, c, and with a
// sequence column seq (or NULL).
func drawRowValues(rt *rapid.T, r *mrow, withSeq bool) {
	if !rapid.Bool().Draw(rt, "anull") {
		v := rapid.Int64Range(-5, 5).Draw(rt, "a")
		r.a = &v
	}
	bv := rapid.SampledFrom([]string{"x", "y", "z"}).Draw(rt, "b")
	r.b = &bv
	r.c = rapid.Int64Range(0, 9).Draw(rt, "c")
	if withSeq && rapid.IntRange(0, 5).Draw(rt, "seqnull") != 0 {
		v := rapid.Int64Range(0, 3).Draw(rt, "seq")
		r.seq = &v
	}
}

func (r mrow) String() string {
	f := func(p *int64) string {
		if p == nil {
			return "NULL"
		}
		return fmt.Sprint(*p)
	}
	b := "NULL"
	if r.b != nil {
		b = *r.b
	}
	a := "NULL"
	if r.a != nil {
		a = fmt.Sprintf("[%d, %d]", *r.a, -*r.a)
	}
	return fmt.Sprintf("%s|%s|%d|%s", a, b, r.c, f(r.seq))
}

func cmpSeq(x, y *int64) int {
	switch {
	case x == nil && y == nil:
		return 0
	case x == nil:
		return -1
	case y == nil:
		return 1
	case *x < *y:
		return -1
	case *x > *y:
		return 1
	}
	return 0
}

// model is the table as the spec defines it: live rows, plus the latest
// version of each key (a delete marker included) for sequence comparisons.
type model struct {
	withSeq bool
	live    map[int64]mrow
	latest  map[int64]mrow
}

func (m *model) apply(mode loadMode, keys []int64, rows []mrow) {
	groups := map[int64][]mrow{}
	var order []int64
	for i, k := range keys {
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], rows[i])
	}
	for _, k := range order {
		var out *mrow
		switch mode {
		case flexibleRows:
			out = m.fold(k, groups[k])
		case fixedPartial:
			out = m.fixed(k, groups[k])
		default:
			out = m.pick(k, groups[k])
		}
		if out == nil {
			continue
		}
		m.latest[k] = *out
		if out.del {
			delete(m.live, k)
		} else {
			m.live[k] = *out
		}
	}
}

// pick resolves full rows: the highest sequence value wins (ties: the later
// row) unless it is below the stored one; without a sequence column the
// last row wins.
func (m *model) pick(k int64, rows []mrow) *mrow {
	if !m.withSeq {
		r := rows[len(rows)-1]
		return &r
	}
	best := rows[0]
	for _, r := range rows[1:] {
		if cmpSeq(r.seq, best.seq) >= 0 {
			best = r
		}
	}
	if old, ok := m.latest[k]; ok && cmpSeq(best.seq, old.seqVal()) < 0 {
		return nil
	}
	return &best
}

// fixed resolves the rows of a fixed partial update as Doris does: one row
// per key (the highest sequence value when the rows carry it, ties the
// later row; else the last row); it loses to a higher stored sequence
// value; without a stored version, or for a delete on a table without a
// sequence column, the missing columns take defaults; else they come from
// the stored version, unless that is a delete: then defaults, but for the
// sequence value when the rows do not carry it.
func (m *model) fixed(k int64, rows []mrow) *mrow {
	seqGiven := m.withSeq && rows[0].have[4]
	best := rows[0]
	for _, r := range rows[1:] {
		if seqGiven && cmpSeq(r.seq, best.seq) < 0 {
			continue
		}
		best = r
	}
	old, hasOld := m.latest[k]
	if hasOld && seqGiven && cmpSeq(best.seq, old.seqVal()) < 0 {
		return nil
	}
	useDefault := !hasOld || best.del && !m.withSeq
	fromOld := func(seqCol bool) bool {
		return !useDefault && (!old.del || seqCol && !seqGiven)
	}
	out := best
	if !best.have[1] {
		out.a = nil
		if fromOld(false) {
			out.a = old.a
		}
	}
	if !best.have[2] {
		d := "d"
		out.b = &d
		if fromOld(false) {
			out.b = old.b
		}
	}
	if !best.have[3] {
		out.c = 0
		if fromOld(false) {
			out.c = old.c
		}
	}
	if m.withSeq && !best.have[4] {
		// The hidden sequence column reads a deleted version's value; the
		// column it copies does not.
		out.seq = nil
		switch {
		case fromOld(false):
			out.seq, out.hasH, out.hseq = old.seq, old.hasH, old.hseq
		case fromOld(true):
			out.hasH, out.hseq = true, old.seqVal()
		}
	}
	return &out
}

// fold resolves flexible rows in order over the current row.
func (m *model) fold(k int64, rows []mrow) *mrow {
	old, hasOld := m.latest[k]
	existing, hasLive := m.live[k]
	var cur *mrow
	afterDelete := false
	for _, r := range rows {
		if m.withSeq && r.have[4] {
			var ref *mrow
			if cur != nil {
				ref = cur
			} else if hasOld {
				ref = &old
			}
			if ref != nil && cmpSeq(r.seq, ref.seqVal()) < 0 {
				continue
			}
		}
		if r.del {
			// A delete without the sequence column takes the sequence
			// value of the live row (the row so far, else the stored
			// one), else of the key's latest version; the other columns
			// are not compared.
			c := r
			if m.withSeq && !r.have[4] {
				var src *mrow
				switch {
				case cur != nil:
					src = cur
				case hasOld:
					src = &old
				}
				c.seq, c.hasH, c.hseq = nil, false, nil
				if src != nil {
					c.seq, c.hasH, c.hseq = src.seq, src.hasH, src.hseq
				}
			}
			cur, afterDelete = &c, true
			continue
		}
		var next mrow
		switch {
		case cur != nil && !afterDelete:
			next = *cur
		case cur == nil && hasLive:
			next = existing
		default:
			d := "d"
			next = mrow{b: &d}
			if m.withSeq && !r.have[4] && hasOld {
				next.seq, next.hasH, next.hseq = old.seq, old.hasH, old.hseq
			}
		}
		if r.have[1] {
			next.a = r.a
		}
		if r.have[2] {
			next.b = r.b
		}
		if r.have[3] {
			next.c = r.c
		}
		if r.have[4] {
			next.seq, next.hasH, next.hseq = r.seq, false, nil
		}
		next.del = false
		cur, afterDelete = &next, false
	}
	return cur
}

func (m *model) dump() string {
	var keys []int64
	for k := range m.live {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%d|%s\n", k, m.live[k])
	}
	return b.String()
}

// TestModel drives random transactions of full upserts, flexible partial
// updates, deletes and sequence values through the real write path, in
// memory and spilled, and compares the table with the model after each.
func TestModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		dir, err := mkdirTemp()
		if err != nil {
			rt.Fatal(err)
		}
		defer removeAll(dir)
		s, err := openStore(dir, storage.Options{CacheBytes: 1 << 20})
		if err != nil {
			rt.Fatal(err)
		}
		defer s.db.Close()
		withSeq := rapid.Bool().Draw(rt, "withSeq")
		props := map[string]string{"enable_unique_key_skip_bitmap_column": "true"}
		if withSeq {
			props["function_column.sequence_col"] = "seq"
		}
		tbl := s.newModelTable(props)
		rc := catalog.NewRowCodec(tbl)
		col := func(name string) int { _, i := tbl.Column(name); return i }
		ck, ca, cb, cc, cs, cd := col("k"), col("a"), col("b"), col("c"), col("seq"), col("__DORIS_DELETE_SIGN__")
		hidden, _ := tbl.Sequence()
		m := &model{withSeq: withSeq, live: map[int64]mrow{}, latest: map[int64]mrow{}}
		for txn := 0; txn < rapid.IntRange(1, 6).Draw(rt, "txns"); txn++ {
			mode := loadMode(rapid.IntRange(0, 2).Draw(rt, "mode"))
			flexible := mode == flexibleRows
			fixed := [5]bool{true, rapid.Bool().Draw(rt, "fa"), rapid.Bool().Draw(rt, "fb"), rapid.Bool().Draw(rt, "fc"), withSeq && rapid.Bool().Draw(rt, "fs")}
			fixedDel := rapid.Bool().Draw(rt, "fixedDel") // the load carries the delete sign (merge_type MERGE)
			mem := 1 << 30
			if rapid.Bool().Draw(rt, "spill") {
				mem = 1
			}
			st := s.w.NewStager(rc, int64(txn+1), mem)
			if mode != fullRows {
				st.SetPartial(&upsert.Partial{Flexible: flexible, Now: time.Unix(1e9, 0), Loc: time.UTC})
			}
			n := rapid.IntRange(1, 8).Draw(rt, "rows")
			var keys []int64
			var rows []mrow
			for i := 0; i < n; i++ {
				k := rapid.Int64Range(0, 4).Draw(rt, "k")
				r := mrow{del: (mode != fixedPartial || fixedDel) && rapid.IntRange(0, 4).Draw(rt, "op") == 0}
				r.have = [5]bool{true, true, true, true, true}
				switch mode {
				case flexibleRows:
					r.have = drawFlexibleHave(rt, r.del, withSeq)
				case fixedPartial:
					r.have = fixed
				}
				drawRowValues(rt, &r, withSeq)
				row := make([]types.Value, len(tbl.Columns))
				row[ck] = types.NewInt(types.BigInt, k)
				if r.a != nil {
					row[ca] = aValue(*r.a)
				}
				row[cb] = types.NewString(types.Varchar, *r.b)
				row[cc] = types.NewInt(types.BigInt, r.c)
				if r.seq != nil {
					row[cs] = types.NewInt(types.BigInt, *r.seq)
					row[hidden] = row[cs]
				}
				sign := int64(0)
				if r.del {
					sign = 1
				}
				row[cd] = types.NewInt(types.TinyInt, sign)
				if mode == fullRows {
					err = st.Add(row)
				} else {
					provided := make([]bool, len(tbl.Columns))
					provided[ck], provided[ca], provided[cb], provided[cc] = true, r.have[1], r.have[2], r.have[3]
					if withSeq {
						provided[cs], provided[hidden] = r.have[4], r.have[4]
					}
					provided[cd] = r.del || mode == fixedPartial && fixedDel
					err = st.AddPartial(row, provided)
				}
				if err != nil {
					rt.Fatal(err)
				}
				keys = append(keys, k)
				rows = append(rows, r)
			}
			if _, err := st.Commit(nil); err != nil {
				rt.Fatal(err)
			}
			m.apply(mode, keys, rows)
			table, err := s.rows(tbl, "k", "a", "b", "c", "seq")
			if err != nil {
				rt.Fatal(err)
			}
			var got strings.Builder
			for _, r := range table {
				got.WriteString(r + "\n")
			}
			if got.String() != m.dump() {
				rt.Fatalf("after transaction %d (mode %d, seq %v):\ntable:\n%smodel:\n%s", txn, mode, withSeq, got.String(), m.dump())
			}
		}
	})
}
