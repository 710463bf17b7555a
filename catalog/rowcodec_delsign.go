package catalog

import (
	"fmt"
	"slices"
	"time"

	"loadgw/storage"
	"loadgw/types"
)

// initDeleteSign finds the delete sign column and its stored position in
// every schema version.
func (rc *RowCodec) initDeleteSign() {
	_, rc.delSign = rc.t.Column(DeleteSignCol)
	for _, vl := range rc.versions {
		vl.delSign = -1
		if rc.delSign >= 0 {
			vl.delSign = slices.Index(vl.target, rc.delSign)
		}
	}
	rc.curVer = rc.t.SchemaVersion
	rc.cur = rc.versions[rc.curVer]
}

// DeleteSign reports whether the stored value val has its delete sign
// (__DORIS_DELETE_SIGN__) set, reading that one value: what DecodeValue
// would put in the column, non-NULL and non-zero. A table without the
// column, or a row of a schema version that did not store it, has none.
func (rc *RowCodec) DeleteSign(val []byte) (bool, error) {
	if rc.delSign < 0 {
		return false, nil
	}
	ver, body, err := storage.RowVersion(val)
	if err != nil {
		return false, err
	}
	vl := rc.cur
	if vl == nil || ver != rc.curVer {
		if vl = rc.versions[ver]; vl == nil {
			return false, fmt.Errorf("row of unknown schema version %d in table %s", ver, rc.t.Name)
		}
	}
	if vl.delSign < 0 {
		return false, nil
	}
	c := rc.t.Columns[rc.delSign]
	switch k := vl.types[vl.delSign].Kind; k {
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		if k == c.Type.Kind {
			i, null, err := storage.RowIntAt(body, vl.types, vl.delSign)
			return !null && i != 0, err
		}
	}
	// Stored with another type than the column's now: decoded and cast,
	// as DecodeValue does.
	v, err := storage.DecodeRowAt(body, vl.types, vl.delSign)
	if err != nil || v.IsNull() {
		return false, err
	}
	if v, err = types.Cast(v, c.Type, time.UTC); err != nil {
		return false, fmt.Errorf("cannot convert column %s of table %s to %s: %w", c.Name, rc.t.Name, c.Type, err)
	}
	return !v.IsNull() && v.I != 0, nil
}
