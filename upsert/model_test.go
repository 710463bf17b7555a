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

func (m *model) apply(flexible bool, keys []int64, rows []mrow) {
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
		if flexible {
			out = m.fold(k, groups[k])
		} else {
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
	if old, ok := m.latest[k]; ok && cmpSeq(best.seq, old.seq) < 0 {
		return nil
	}
	return &best
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
			if ref != nil && cmpSeq(r.seq, ref.seq) < 0 {
				continue
			}
		}
		if r.del {
			c := r
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
				next.seq = old.seq
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
			next.seq = r.seq
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
			flexible := rapid.Bool().Draw(rt, "flexible")
			mem := 1 << 30
			if rapid.Bool().Draw(rt, "spill") {
				mem = 1
			}
			st := s.w.NewStager(rc, int64(txn+1), mem)
			if flexible {
				st.SetPartial(&upsert.Partial{Flexible: true, Now: time.Unix(1e9, 0), Loc: time.UTC})
			}
			n := rapid.IntRange(1, 8).Draw(rt, "rows")
			var keys []int64
			var rows []mrow
			for i := 0; i < n; i++ {
				k := rapid.Int64Range(0, 4).Draw(rt, "k")
				r := mrow{del: rapid.IntRange(0, 4).Draw(rt, "op") == 0}
				r.have = [5]bool{true, true, true, true, true}
				if flexible {
					r.have = drawFlexibleHave(rt, r.del, withSeq)
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
				if !flexible {
					err = st.Add(row)
				} else {
					provided := make([]bool, len(tbl.Columns))
					provided[ck], provided[ca], provided[cb], provided[cc] = true, r.have[1], r.have[2], r.have[3]
					if withSeq {
						provided[cs], provided[hidden] = r.have[4], r.have[4]
					}
					provided[cd] = r.del
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
			m.apply(flexible, keys, rows)
			table, err := s.rows(tbl, "k", "a", "b", "c", "seq")
			if err != nil {
				rt.Fatal(err)
			}
			var got strings.Builder
			for _, r := range table {
				got.WriteString(r + "\n")
			}
			if got.String() != m.dump() {
				rt.Fatalf("after transaction %d (flexible %v, seq %v):\ntable:\n%smodel:\n%s", txn, flexible, withSeq, got.String(), m.dump())
			}
		}
	})
}
