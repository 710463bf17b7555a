package catalog

import (
	"fmt"
	"slices"

	"loadgw/storage"
	"loadgw/types"
)

// IntReader reads integer-like columns (storage.IntStored) of rows
// straight from their stored key and value, without decoding the row:
// value columns as the varints they are stored as, key columns by
// decoding the key up to the last of them. A scan filters on them before
// it decodes anything (see the engine's encoded filter). It holds
// per-read state: one reader per goroutine.
type IntReader struct {
	rc   *RowCodec
	cols []int
	// key[i] tells whether cols[i] is a key column; keyN is the number of
	// leading key columns decoded to read them, row where they go.
	key    []bool
	keyN   int
	suffix int // the length of the key's version suffix
	row    []types.Value
	// vcols is the number of value columns among cols; plans their
	// reading per schema version.
	vcols int
	plans map[uint32]*intPlan
	// ver and plan are the schema version read last and its plan.
	ver  uint32
	plan *intPlan
	vals []int64
	null []bool
}

// intPlan is how the rows of one schema version are read: the stored
// positions at (ascending), and pos[i] the index in at of the i-th column
// of cols (a value column).
type intPlan struct {
	ts  []types.Type
	at  []int32
	pos []int
}

// NewIntReader prepares reading the columns cols (table positions, each
// once). ok is false when one of them is neither a key column nor a
// stored value column, is not of a storage.IntStored type, or is a value
// column some schema version stores with another type or lacks (a column
// added since some rows were written).
func (rc *RowCodec) NewIntReader(cols []int) (*IntReader, bool) {
	r := &IntReader{rc: rc, cols: cols, key: make([]bool, len(cols)), plans: map[uint32]*intPlan{}}
	for i, c := range cols {
		if c < 0 || c >= len(rc.t.Columns) || !storage.IntStored(rc.t.Columns[c].Type) {
			return nil, false
		}
		if k := slices.Index(rc.keyIdx, c); k >= 0 {
			r.key[i], r.keyN = true, max(r.keyN, k+1)
			continue
		}
		if !slices.Contains(rc.valIdx, c) {
			return nil, false
		}
		r.vcols++
	}
	if r.keyN > 0 {
		r.row = make([]types.Value, len(rc.t.Columns))
		r.suffix = rc.KeySuffixLen()
	}
	r.vals, r.null = make([]int64, r.vcols), make([]bool, r.vcols)
	if r.vcols == 0 {
		return r, true
	}
	for ver, vl := range rc.versions {
		pl := &intPlan{ts: vl.types, pos: make([]int, len(cols))}
		for j, p := range vl.target {
			if p < 0 {
				continue
			}
			if s := slices.Index(cols, p); s >= 0 {
				if !vl.types[j].Equal(rc.t.Columns[p].Type) {
					return nil, false
				}
				pl.pos[s] = len(pl.at)
				pl.at = append(pl.at, int32(j))
			}
		}
		if len(pl.at) != r.vcols || slices.ContainsFunc(vl.absent, func(p int) bool { return slices.Contains(cols, p) }) {
			return nil, false
		}
		r.plans[ver] = pl
	}
	if len(r.plans) == 0 {
		return nil, false
	}
	return r, true
}

// Read reads the columns from a stored row: its full key and its value.
// Val then gives them.
func (r *IntReader) Read(key, val []byte) error {
	if r.keyN > 0 {
		if len(key) < len(r.rc.prefix)+r.suffix {
			return fmt.Errorf("row key of %d bytes in table %s", len(key), r.rc.t.Name)
		}
		b := key[len(r.rc.prefix) : len(key)-r.suffix]
		var err error
		for j, c := range r.rc.keyIdx[:r.keyN] {
			if r.row[c], b, err = storage.DecodeKey(b, r.rc.keyTypes[j]); err != nil {
				return err
			}
		}
	}
	if r.vcols == 0 {
		return nil
	}
	ver, body, err := storage.RowVersion(val)
	if err != nil {
		return err
	}
	if r.plan == nil || ver != r.ver {
		pl := r.plans[ver]
		if pl == nil {
			return fmt.Errorf("row of unknown schema version %d in table %s", ver, r.rc.t.Name)
		}
		r.ver, r.plan = ver, pl
	}
	return storage.RowInts(body, r.plan.ts, r.plan.at, r.vals, r.null)
}

// Val is the I of the i-th column of cols read by the last Read, and
// whether it is NULL.
func (r *IntReader) Val(i int) (int64, bool) {
	if r.key[i] {
		v := &r.row[r.cols[i]]
		return v.I, v.IsNull()
	}
	k := r.plan.pos[i]
	return r.vals[k], r.null[k]
}
