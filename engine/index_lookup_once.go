package engine

import (
	"bytes"

	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// First rows of a key through an index. A semi or anti join that keeps its
// build side and has no condition besides its one key (`EXISTS (SELECT *
// FROM lineitem WHERE l_orderkey = o_orderkey AND l_commitdate <
// l_receiptdate)`, TPC-H Q4, with orders built) only asks, of each build
// key, whether the probe side has a row: a second row of the same key
// changes nothing. When the probe side is the scan itself and the scan
// looks up the key's index, it reads the rows the index names in row key
// order with one iterator, as any lookup does, but skips the rows of a key
// one of whose rows already passed the scan's filters. Q4's lookup reads
// about one and a half of each order's four lineitems instead of all of
// them (63% of lineitems pass l_commitdate < l_receiptdate).

// valueKeys is one looked-up value of an index lookup: its encoded entry
// prefix, the value and the end of its row keys among the lookup's keys.
type valueKeys struct {
	enc []byte
	val types.Value
	end int32
}

// lookupGroups is the grouping of an index lookup's keys by value (see
// collectEntries): the keys of values[i] are keys[values[i-1].end:
// values[i].end], in key order. slot is the scan column the values are of.
type lookupGroups struct {
	values []valueKeys
	slot   int
}

// collectGroups is collect for a key filter that needs a first row per
// key: the keys grouped by value, or nil when there are more than limit.
// A value's entries hold its row keys past the table prefix, so they come
// in key order.
func (n *scanNode) collectGroups(x *execCtx, r storage.Reader, ic upsert.IndexCol, vals []types.Value, lo, hi []byte, limit int64) ([][]byte, *lookupGroups, error) {
	keys, values, err := n.collectEntries(x, r, ic, vals, lo, hi, limit)
	if keys == nil || err != nil {
		return nil, nil, err
	}
	return keys, &lookupGroups{values: values, slot: ic.Col}, nil
}

// scanFirstKeys reads the rows of sc.keys within [lo, hi) in key order, as
// scanKeys does, but a value's row only while none of its rows was
// yielded (see above).
func (sc *scanner) scanFirstKeys(lo, hi []byte, fn func(row []types.Value) (bool, error)) error {
	g := sc.groups
	keys := make([]lookupKey, 0, len(sc.keys))
	start := int32(0)
	for i, v := range g.values {
		for _, k := range sc.keys[start:v.end] {
			if bytes.Compare(k, lo) >= 0 && (hi == nil || bytes.Compare(k, hi) < 0) {
				keys = append(keys, lookupKey{key: k, value: int32(i)})
			}
		}
		start = v.end
	}
	if len(keys) == 0 {
		return nil
	}
	sortLookupKeys(keys)
	it, err := sc.r.NewIter(lo, hi)
	if err != nil {
		return err
	}
	defer it.Close()
	row := make([]types.Value, len(sc.t.Columns))
	done := make([]bool, len(g.values))
	var read int64
	defer func() { indexLookupRows.Add(read) }()
	positioned := false
	for _, c := range keys {
		if done[c.value] {
			continue
		}
		if sc.poll != nil {
			if err := sc.poll(); err != nil {
				return err
			}
		}
		if !seekNear(it, c.key, positioned) {
			break
		}
		positioned = true
		if !bytes.Equal(it.Key(), c.key) {
			continue // the row is gone
		}
		read++
		more, err := sc.visit(it.Key(), it.Value(), row, func(row []types.Value) (bool, error) {
			// A stale entry may name a row of another value: that row
			// does not answer for this one.
			if sameKey(row[g.slot], g.values[c.value].val) {
				done[c.value] = true
			}
			return fn(row)
		})
		if err != nil || !more {
			return err
		}
	}
	return it.Close()
}

// sameKey reports whether scan value v is the looked-up integer key k.
func sameKey(v, k types.Value) bool {
	a, ok := smallInt(v)
	b, ok2 := smallInt(k)
	return ok && ok2 && !v.IsNull() && a == b
}
