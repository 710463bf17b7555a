package engine

import (
	"testing"

	"loadgw/expr"
	"loadgw/types"
)

// intFilter is a probe key filter on column slot of the given build keys.
func intFilter(t *testing.T, slot int, keys ...int64) *keyFilter {
	t.Helper()
	bigint := types.Type{Kind: types.BigInt}
	h := newHashTable([]expr.Compiled{expr.ColumnSlot(0, bigint)}, []types.Type{bigint}, len(keys))
	for i, k := range keys {
		if err := h.add(i, []types.Value{types.NewInt(types.BigInt, k)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	h.finish()
	return &keyFilter{table: h, slot: slot, key: expr.ColumnSlot(slot, bigint)}
}

// chainSlots lists the slots of a scan's filters in the order they are tested.
func chainSlots(f *keyFilter) []int {
	var out []int
	for ; f != nil; f = f.next {
		out = append(out, f.slot)
	}
	return out
}

// TestKeyFilterOrder checks that a scan tests its cheap, selective filters
// first whatever order the joins install them in (TPC-H Q5: the orders'
// wide bit set is installed last, by the join nearest lineitem, but the
// suppliers' small one is tested first), and that removing a filter
// leaves the chain the earlier joins installed.
func TestKeyFilterOrder(t *testing.T) {
	// slot 1: a fifth of 1,000 keys, a small bit set kept in cache.
	var supp []int64
	for k := int64(0); k < 10_000; k += 5 {
		supp = append(supp, k)
	}
	small := intFilter(t, 1, supp...)
	// slot 0: 40,000 keys over 6M: a 750 KiB bit set that keeps 0.7%.
	var ord []int64
	for k := int64(1); k < 6_000_000; k += 150 {
		ord = append(ord, k)
	}
	wide := intFilter(t, 0, ord...)
	// slot 2: keys 0..999 but one: a small slice that keeps nearly all.
	var all []int64
	for k := int64(0); k < 1000; k++ {
		if k != 500 {
			all = append(all, k)
		}
	}
	dense := intFilter(t, 2, all...)
	if wide.table.bits == nil || small.table.bits == nil || dense.table.dense == nil {
		t.Fatalf("tables: wide bits %v, small bits %v, dense %v", wide.table.bits != nil, small.table.bits != nil, dense.table.dense != nil)
	}

	x := &execCtx{}
	sc := &scanNode{}
	undoSmall := x.setKeyFilter(sc, small)
	undoDense := x.setKeyFilter(sc, dense)
	undoWide := x.setKeyFilter(sc, wide)
	if got := chainSlots(x.keyFilters[sc]); !equalInts(got, []int{1, 0, 2}) {
		t.Errorf("filters tested in slot order %v, want [1 0 2] (small bit set, wide bit set, near-complete slice)", got)
	}
	row := []types.Value{types.NewInt(types.BigInt, 151), types.NewInt(types.BigInt, 10), types.NewInt(types.BigInt, 7)}
	if ok, err := x.keyFilters[sc].keep(row, nil); err != nil || !ok {
		t.Errorf("keep(151, 10, 7) = %v, %v; want true", ok, err)
	}
	row[1] = types.NewInt(types.BigInt, 11)
	if ok, err := x.keyFilters[sc].keep(row, nil); err != nil || ok {
		t.Errorf("keep(151, 11, 7) = %v, %v; want false", ok, err)
	}
	undoWide()
	if got := chainSlots(x.keyFilters[sc]); !equalInts(got, []int{1, 2}) {
		t.Errorf("after removing the wide filter: slots %v, want [1 2]", got)
	}
	undoDense()
	if got := chainSlots(x.keyFilters[sc]); !equalInts(got, []int{1}) {
		t.Errorf("after removing the dense filter: slots %v, want [1]", got)
	}
	undoSmall()
	if _, ok := x.keyFilters[sc]; ok {
		t.Error("a filter is left after removing all")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
