package mysqlwire

import (
	"slices"
	"time"

	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"

	"loadgw/engine"
	"loadgw/types"
)

// charsetUTF8 is the character set Doris reports for every result column
// (33, utf8_general_ci; only VARBINARY has 63).
const charsetUTF8 = 33

// zeroFlags makes the library write column flags 0, as Doris does for every
// type but VARBINARY: the library replaces a zero Field.Flags with flags of
// its own for some types (BINARY for DATE and DATETIME) but writes only the
// low 16 bits of a non-zero one.
const zeroFlags = 1 << 16

// fields describes a result set's columns as Doris's
// MysqlSerializer.writeField does: the MySQL type of
// PrimitiveType.toMysqlType, the display length of getMysqlTypeLength, the
// decimals of getMysqlDecimals, charset 33 and no flags.
func fields(cols []engine.Column) []*querypb.Field {
	out := make([]*querypb.Field, len(cols))
	for i, c := range cols {
		orig := c.Name
		if c.OrigName != "" {
			orig = c.OrigName
		}
		out[i] = &querypb.Field{
			Name:         c.Name,
			OrgName:      orig,
			Type:         wireType(c.Type),
			ColumnLength: typeLength(c.Type),
			Charset:      charsetUTF8,
			Decimals:     decimals(c.Type),
			Flags:        zeroFlags,
		}
	}
	return out
}

// wireType is the library's type whose MySQL type code is Doris's
// PrimitiveType.toMysqlType.
func wireType(t types.Type) querypb.Type {
	switch t.Kind {
	case types.Boolean, types.TinyInt:
		return sqltypes.Int8 // MYSQL_TYPE_TINY
	case types.SmallInt:
		return sqltypes.Int16 // MYSQL_TYPE_SHORT
	case types.Int:
		return sqltypes.Int32 // MYSQL_TYPE_LONG
	case types.BigInt:
		return sqltypes.Int64 // MYSQL_TYPE_LONGLONG
	case types.Float:
		return sqltypes.Float32
	case types.Double:
		return sqltypes.Float64
	case types.Date:
		return sqltypes.Date
	case types.DateTime, types.TimestampTZ:
		return sqltypes.Datetime
	case types.Decimal:
		return sqltypes.Decimal // MYSQL_TYPE_NEWDECIMAL
	case types.String:
		return sqltypes.Text // MYSQL_TYPE_BLOB
	case types.JSON, types.Variant:
		return sqltypes.TypeJSON
	}
	// LARGEINT, CHAR, VARCHAR and the rest: MYSQL_TYPE_STRING.
	return sqltypes.Char
}

// typeLength is Doris's getMysqlTypeLength.
func typeLength(t types.Type) uint32 {
	switch t.Kind {
	case types.Boolean:
		return 1
	case types.TinyInt:
		return 4
	case types.SmallInt:
		return 6
	case types.Int:
		return 11
	case types.BigInt:
		return 20
	case types.Float:
		return 12
	case types.Double:
		return 22
	case types.Date:
		return 10
	case types.DateTime, types.TimestampTZ:
		return 19
	case types.Decimal:
		if t.Scale > 0 {
			return uint32(t.Precision) + 2
		}
		return uint32(t.Precision) + 1
	}
	return 255
}

// decimals is Doris's getMysqlDecimals.
func decimals(t types.Type) uint32 {
	switch t.Kind {
	case types.Decimal, types.DateTime, types.TimestampTZ:
		return uint32(t.Scale)
	case types.Float, types.Double:
		return 31
	}
	return 0
}

// appendRow converts one row to wire values in Doris's text forms,
// appending the text to buf; the values point into buf's arrays, which
// are never written again once a value points into them (a growing buf
// moves to a new array). In the binary protocol a TIMESTAMPTZ goes as its
// local date and time, the binary DATETIME having no offset.
func appendRow(dst []sqltypes.Value, buf []byte, row []types.Value, fs []*querypb.Field, loc *time.Location, binary bool) ([]sqltypes.Value, []byte) {
	for j, v := range row {
		if v.Kind == types.Null {
			dst = append(dst, sqltypes.NULL)
			continue
		}
		if binary && v.Kind == types.TimestampTZ {
			off := types.ZoneOffset(v.I, loc)
			v = types.Value{Kind: types.DateTime, I: v.I + int64(off)*types.MicrosPerSecond, Scale: v.Scale}
		}
		start := len(buf)
		buf = types.AppendFormat(buf, v, loc)
		dst = append(dst, sqltypes.MakeTrusted(fs[j].Type, buf[start:len(buf):len(buf)]))
	}
	return dst, buf
}

// fieldCache keeps the column definitions of a connection's last result
// set: a prepared statement run again answers with the same columns, whose
// definitions are then not built again. The library only reads them.
type fieldCache struct {
	cols []engine.Column
	fs   []*querypb.Field
	// cells, out and buf are the row buffers of the last result set,
	// reused by the next one (the library has written a batch when its
	// callback returns); kept only while small.
	cells []sqltypes.Value
	out   [][]sqltypes.Value
	buf   []byte
}

// maxKeptCells and maxKeptText bound the row buffers a connection keeps
// between result sets.
const (
	maxKeptCells = 1024
	maxKeptText  = 16 << 10
)

// keep stores the row buffers for the next result set, dropping large
// ones. The values in cells point into buf's arrays: both are cleared so
// that nothing old is reachable through them.
func (fc *fieldCache) keep(cells []sqltypes.Value, out [][]sqltypes.Value, buf []byte) {
	if cap(cells) > maxKeptCells || cap(out) > maxKeptCells || cap(buf) > maxKeptText {
		fc.cells, fc.out, fc.buf = nil, nil, nil
		return
	}
	clear(cells)
	clear(out)
	fc.cells, fc.out, fc.buf = cells[:0], out[:0], buf[:0]
}

// fields returns the definitions of cols, reusing the last ones when cols
// are equal to the last columns.
func (fc *fieldCache) fields(cols []engine.Column) []*querypb.Field {
	if fc.fs == nil || !slices.Equal(cols, fc.cols) {
		fc.cols, fc.fs = append(fc.cols[:0], cols...), fields(cols)
	}
	return fc.fs
}
