package catalog

import (
	"encoding/binary"
	"fmt"
	"time"

	"loadgw/storage"
	"loadgw/types"
)

// Row keys. A row of table id lives under
//
//	RowPrefix(id) | key columns, order-preserving | suffix
//
// The suffix of a Unique or Aggregate Key row is ^tso (8 bytes), so the newest
// version of a key is the first one a seek finds. The suffix of a Duplicate
// Key row is tso (8 bytes) | lsn (4 bytes), so rows with equal keys stay
// apart, in commit order.
const (
	uniqueSuffixLen = 8
	dupSuffixLen    = 12
)

// RowCodec encodes and decodes the rows of one table definition. A row is a
// []types.Value with one element per column of Table.Columns.
type RowCodec struct {
	t        *Table
	prefix   []byte
	keyIdx   []int
	keyTypes []types.Type
	valIdx   []int
	valTypes []types.Type
	versions map[uint32]*versionLayout
	tsoIdx   []int // virtual columns filled with the commit TSO
	verIdx   int   // position of __DORIS_VERSION_COL__, or -1
	// rowStoreIdx is the position of __DORIS_ROW_STORE_COL__, or -1;
	// rowStoreCols the columns it holds (see rowstore.go).
	rowStoreIdx  int
	rowStoreCols []int
	// delSign is the position of __DORIS_DELETE_SIGN__ among the columns,
	// or -1; cur the layout of the table's schema version curVer, the
	// current one when the codec was built (see rowcodec_delsign.go).
	delSign int
	curVer  uint32
	cur     *versionLayout
}

type versionLayout struct {
	types  []types.Type
	target []int // column position per stored value, -1 if dropped since
	absent []int // current stored columns missing from this version
	// delSign is the stored position of the delete sign column in this
	// version, or -1 when it is not stored.
	delSign int
	// conv lists the stored values of this version whose column has since
	// changed its type kind (MODIFY COLUMN INT to BIGINT, ...): they are
	// cast to the column's type on read.
	conv []int // column positions
}

// NewRowCodec builds the codec of t.
func NewRowCodec(t *Table) *RowCodec {
	rc := &RowCodec{t: t, prefix: RowPrefix(t.ID), versions: map[uint32]*versionLayout{}, verIdx: -1, rowStoreIdx: -1}
	pos := map[int32]int{}
	for i, c := range t.Columns {
		pos[c.UID] = i
		switch {
		case c.IsKey:
			rc.keyIdx = append(rc.keyIdx, i)
			rc.keyTypes = append(rc.keyTypes, c.Type)
		case c.Virtual && c.Name == VersionCol:
			rc.verIdx = i
		case c.Virtual && c.Name == RowStoreCol:
			rc.rowStoreIdx = i
			rc.rowStoreCols = rowStoreColumns(t)
		case c.Virtual:
			rc.tsoIdx = append(rc.tsoIdx, i)
		default:
			rc.valIdx = append(rc.valIdx, i)
			rc.valTypes = append(rc.valTypes, c.Type)
		}
	}
	for ver, cols := range t.Schemas {
		vl := &versionLayout{}
		seen := map[int]bool{}
		for _, sc := range cols {
			vl.types = append(vl.types, sc.Type)
			p, ok := pos[sc.UID]
			if !ok || t.Columns[p].IsKey {
				p = -1
			} else {
				seen[p] = true
				if sc.Type.Kind != t.Columns[p].Type.Kind {
					vl.conv = append(vl.conv, p)
				}
			}
			vl.target = append(vl.target, p)
		}
		for _, p := range rc.valIdx {
			if !seen[p] {
				vl.absent = append(vl.absent, p)
			}
		}
		rc.versions[ver] = vl
	}
	rc.initDeleteSign()
	return rc
}

// Table is the definition the codec was built for.
func (rc *RowCodec) Table() *Table { return rc.t }

// Prefix is the key prefix of every row of the table.
func (rc *RowCodec) Prefix() []byte { return rc.prefix }

// AppendKeyPrefix appends RowPrefix and the encoded key columns of row.
func (rc *RowCodec) AppendKeyPrefix(dst []byte, row []types.Value) []byte {
	dst = append(dst, rc.prefix...)
	for j, i := range rc.keyIdx {
		dst = storage.AppendKey(dst, row[i], rc.keyTypes[j])
	}
	return dst
}

// AppendUniqueKey appends the full key of a Unique/Aggregate Key row version.
func (rc *RowCodec) AppendUniqueKey(dst []byte, row []types.Value, tso uint64) []byte {
	dst = rc.AppendKeyPrefix(dst, row)
	return binary.BigEndian.AppendUint64(dst, ^tso)
}

// AppendDupKey appends the full key of a Duplicate Key row.
func (rc *RowCodec) AppendDupKey(dst []byte, row []types.Value, tso uint64, lsn uint32) []byte {
	dst = rc.AppendKeyPrefix(dst, row)
	dst = binary.BigEndian.AppendUint64(dst, tso)
	return binary.BigEndian.AppendUint32(dst, lsn)
}

// AppendValue appends the encoded stored value columns of row.
func (rc *RowCodec) AppendValue(dst []byte, row []types.Value) []byte {
	return storage.AppendRowOf(dst, rc.t.SchemaVersion, row, rc.valIdx, rc.valTypes)
}

// KeySuffixLen is the length of the version suffix of this table's row keys.
func (rc *RowCodec) KeySuffixLen() int {
	if rc.t.IsUnique() {
		return uniqueSuffixLen
	}
	return dupSuffixLen
}

// KeyTSO extracts the commit TSO from a full row key.
func (rc *RowCodec) KeyTSO(key []byte) uint64 {
	if rc.t.IsUnique() {
		return ^binary.BigEndian.Uint64(key[len(key)-uniqueSuffixLen:])
	}
	return binary.BigEndian.Uint64(key[len(key)-dupSuffixLen:])
}

// DecodeKey fills the key columns of row from a full row key.
func (rc *RowCodec) DecodeKey(key []byte, row []types.Value) error {
	return rc.DecodeKeyColumns(key[len(rc.prefix):len(key)-rc.KeySuffixLen()], row)
}

// DecodeKeyColumns fills the key columns of row from their encoding alone:
// a row key without the table prefix and the version suffix (the key part
// of a change record, or a key prefix past the table prefix).
func (rc *RowCodec) DecodeKeyColumns(b []byte, row []types.Value) error {
	var err error
	for j, i := range rc.keyIdx {
		row[i], b, err = storage.DecodeKey(b, rc.keyTypes[j])
		if err != nil {
			return err
		}
	}
	return nil
}

// DecodeValue fills the value columns of row from an encoded value. fill
// gives the value of a column missing from an older schema version.
func (rc *RowCodec) DecodeValue(val []byte, row []types.Value, scratch []types.Value, fill func(col int) types.Value) ([]types.Value, error) {
	return rc.DecodeValueMask(val, row, scratch, fill, nil)
}

// Projection is the set of columns a reader needs, prepared per schema
// version. It is immutable and built once per statement.
type Projection struct {
	need  []bool
	plans map[uint32]*projPlan // per schema version
}

// projPlan is how a Projection decodes the rows of one schema version:
// stored value j goes to column to[j] (-1: stepped over), and decoding
// stops after value last.
type projPlan struct {
	to   []int32
	last int
}

// NewProjection prepares reading only the columns with need[col] set.
func (rc *RowCodec) NewProjection(need []bool) *Projection {
	p := &Projection{need: need, plans: map[uint32]*projPlan{}}
	for ver, vl := range rc.versions {
		pl := &projPlan{to: make([]int32, len(vl.types)), last: -1}
		for j, col := range vl.target {
			pl.to[j] = -1
			if col >= 0 && need[col] {
				pl.to[j], pl.last = int32(col), j
			}
		}
		p.plans[ver] = pl
	}
	return p
}

// plan is the decoding plan of schema version ver, nil without one.
func (p *Projection) plan(ver uint32) *projPlan {
	if p == nil {
		return nil
	}
	return p.plans[ver]
}

// DecodeValueMask is DecodeValue that fills only the columns of proj (all
// when proj is nil); the others keep their previous values.
func (rc *RowCodec) DecodeValueMask(val []byte, row []types.Value, scratch []types.Value, fill func(col int) types.Value, proj *Projection) ([]types.Value, error) {
	ver, body, err := storage.RowVersion(val)
	if err != nil {
		return scratch, err
	}
	vl := rc.versions[ver]
	if vl == nil {
		return scratch, fmt.Errorf("row of unknown schema version %d in table %s", ver, rc.t.Name)
	}
	var need []bool
	if proj != nil {
		need = proj.need
	}
	if pl := proj.plan(ver); pl != nil {
		// Straight into the row, only as far as the last column read.
		if err := storage.DecodeRowTo(body, vl.types, row, pl.to, pl.last); err != nil {
			return scratch, err
		}
		for _, p := range vl.absent {
			if need[p] {
				row[p] = fill(p)
			}
		}
		return scratch, rc.convert(vl, row, need)
	}
	if cap(scratch) < len(vl.types) {
		scratch = make([]types.Value, len(vl.types))
	}
	scratch = scratch[:len(vl.types)]
	if err := storage.DecodeRowMask(body, vl.types, scratch, nil); err != nil {
		return scratch, err
	}
	for j, p := range vl.target {
		if p >= 0 && (need == nil || need[p]) {
			row[p] = scratch[j]
		}
	}
	for _, p := range vl.absent {
		if need == nil || need[p] {
			row[p] = fill(p)
		}
	}
	return scratch, rc.convert(vl, row, need)
}

// convert casts the values of row read from version vl whose column type
// changed since (vl.conv) to the column's current type.
func (rc *RowCodec) convert(vl *versionLayout, row []types.Value, need []bool) error {
	for _, p := range vl.conv {
		if need != nil && !need[p] {
			continue
		}
		v, err := types.Cast(row[p], rc.t.Columns[p].Type, time.UTC)
		if err != nil {
			return fmt.Errorf("cannot convert column %s of table %s to %s: %w", rc.t.Columns[p].Name, rc.t.Name, rc.t.Columns[p].Type, err)
		}
		row[p] = v
	}
	return nil
}

// FillVirtual sets the virtual columns of row: __DORIS_COMMIT_TSO_COL__ to
// the commit TSO, __DORIS_VERSION_COL__ to version (the table version of
// that commit, see HasVersionCol).
func (rc *RowCodec) FillVirtual(row []types.Value, tso uint64, version int64) {
	for _, i := range rc.tsoIdx {
		row[i] = types.NewInt(types.BigInt, int64(tso))
	}
	if rc.verIdx >= 0 {
		row[rc.verIdx] = types.NewInt(types.BigInt, version)
	}
}

// RowStoreCol is the position of __DORIS_ROW_STORE_COL__, or -1 when the
// table has none. A reader of it must decode every column of the row
// (and its __DORIS_VERSION_COL__) and then call AppendRowStore.
func (rc *RowCodec) RowStoreCol() int { return rc.rowStoreIdx }

// VersionCol is the position of __DORIS_VERSION_COL__, or -1 when the
// table has none.
func (rc *RowCodec) VersionCol() int { return rc.verIdx }
