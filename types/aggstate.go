package types

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"
	"strings"
)

// AggStateType describes Doris's AGG_STATE<fn(arg [NOT] NULL, ...)>: the
// intermediate state of aggregate fn over arguments of the given types.
type AggStateType struct {
	// Func is the aggregate's lower-case name ("sum", "max_by").
	Func string
	// Args are the argument types, in order.
	Args []Type
	// Nullable says, per argument, whether it may be NULL (Doris's
	// dataTypeWithNullable; an argument written without NULL / NOT NULL is
	// nullable).
	Nullable []bool
}

// AggStateOf returns AGG_STATE<fn(args)>.
func AggStateOf(fn string, args []Type, nullable []bool) Type {
	return Type{Kind: AggState, State: &AggStateType{Func: strings.ToLower(fn), Args: args, Nullable: nullable}}
}

func (a *AggStateType) equal(o *AggStateType) bool {
	if a == nil || o == nil {
		return a == o
	}
	if a.Func != o.Func || len(a.Args) != len(o.Args) {
		return false
	}
	for i := range a.Args {
		if !a.Args[i].Equal(o.Args[i]) || a.Nullable[i] != o.Nullable[i] {
			return false
		}
	}
	return true
}

// String spells the type as Doris's AggStateType.toSql does (DESC, SHOW
// CREATE TABLE): agg_state<max_by(int not null, int null)>.
func (a *AggStateType) String() string {
	if a == nil {
		return "agg_state"
	}
	var b strings.Builder
	b.WriteString("agg_state<" + a.Func + "(")
	for i, t := range a.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(catalogTypeSQL(t))
		if a.Nullable[i] {
			b.WriteString(" null")
		} else {
			b.WriteString(" not null")
		}
	}
	b.WriteString(")>")
	return b.String()
}

// catalogTypeSQL is ScalarType.toSql's spelling of an argument type.
func catalogTypeSQL(t Type) string {
	switch t.Kind {
	case Decimal:
		return "decimalv3(" + strconv.Itoa(int(t.Precision)) + "," + strconv.Itoa(int(t.Scale)) + ")"
	case DateTime:
		return "datetimev2(" + strconv.Itoa(int(t.Scale)) + ")"
	case Date:
		return "datev2"
	}
	return t.SQLString()
}

// castToAggState accepts a state for a column of an AGG_STATE type: the
// same aggregate, and no NULL folded into a NOT NULL argument (Doris wraps
// such an argument in non_nullable(), which fails on a NULL).
func castToAggState(v Value, to Type) (Value, error) {
	if v.Kind != AggState {
		return NullValue, unsupportedCast(v, to)
	}
	if to.State == nil {
		return v, nil
	}
	d, err := DecodeAggState(v.S)
	if err != nil {
		return NullValue, err
	}
	if d.NullArg {
		for _, n := range to.State.Nullable {
			if !n {
				return NullValue, newError(ErrUnsupportedCast,
					"There's NULL value in column %s which is illegal for non_nullable", to.State.String())
			}
		}
	}
	return v, nil
}

// AggStateData is the decoded content of an AGG_STATE value: the argument
// rows folded so far, reduced by the aggregate's own rule (a SUM keeps one
// row holding the sum, a GROUP_CONCAT every row), and the number of rows
// counted (COUNT and AVG).
type AggStateData struct {
	// NullArg is set when a row with a NULL argument was folded in.
	NullArg bool
	// N is the number of rows counted.
	N int64
	// Rows are the (reduced) argument rows, newest first.
	Rows [][]Value
}

// aggStateVersion is the first byte of every encoded AGG_STATE value.
//
// Format, version 1:
//
//	version byte | flags byte (bit 0: NullArg) | uvarint N |
//	uvarint row count | per row: uvarint width, then each value
//
// A value is its Kind byte, then: nothing for NULL; Scale byte and two
// varints (I, Hi) for DECIMAL; a Scale byte and a varint for DATETIME and
// TIMESTAMPTZ; two varints for LARGEINT and IPV6; 8 bytes (float64 bits,
// little endian) for FLOAT and DOUBLE; a varint for the other fixed-size
// kinds; a uvarint length and the bytes for the kinds kept in S.
const aggStateVersion = 1

// maxAggStateWidth bounds the width of one row of a decoded state.
const maxAggStateWidth = 64

var errCorruptAggState = errors.New("cannot decode AGG_STATE value: corrupt state")

// EncodeAggState encodes d in the format above.
func EncodeAggState(d *AggStateData) string {
	b := make([]byte, 0, 16)
	b = append(b, aggStateVersion, 0)
	if d.NullArg {
		b[1] = 1
	}
	b = binary.AppendUvarint(b, uint64(d.N))
	b = binary.AppendUvarint(b, uint64(len(d.Rows)))
	for _, r := range d.Rows {
		b = binary.AppendUvarint(b, uint64(len(r)))
		for _, v := range r {
			b = appendStateValue(b, v)
		}
	}
	return string(b)
}

// DecodeAggState decodes an encoded state; "" is the empty state.
func DecodeAggState(s string) (*AggStateData, error) {
	d := &AggStateData{}
	if s == "" {
		return d, nil
	}
	b := []byte(s)
	if len(b) < 2 || b[0] != aggStateVersion {
		return nil, errCorruptAggState
	}
	d.NullArg = b[1]&1 != 0
	b = b[2:]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > math.MaxInt64 {
		return nil, errCorruptAggState
	}
	d.N, b = int64(n), b[k:]
	rows, k := binary.Uvarint(b)
	if k <= 0 || rows > uint64(len(b)) {
		return nil, errCorruptAggState
	}
	b = b[k:]
	if rows > 0 {
		d.Rows = make([][]Value, 0, rows)
	}
	for range rows {
		w, k := binary.Uvarint(b)
		if k <= 0 || w > maxAggStateWidth {
			return nil, errCorruptAggState
		}
		b = b[k:]
		r := make([]Value, w)
		for i := range r {
			var err error
			if r[i], b, err = readStateValue(b); err != nil {
				return nil, err
			}
		}
		d.Rows = append(d.Rows, r)
	}
	if len(b) != 0 {
		return nil, errCorruptAggState
	}
	return d, nil
}

func appendStateValue(b []byte, v Value) []byte {
	b = append(b, byte(v.Kind))
	switch v.Kind {
	case Null:
	case Decimal:
		b = append(b, byte(v.Scale))
		b = binary.AppendVarint(b, v.I)
		b = binary.AppendVarint(b, v.Hi)
	case DateTime, TimestampTZ:
		b = append(b, byte(v.Scale))
		b = binary.AppendVarint(b, v.I)
	case LargeInt, IPv6:
		b = binary.AppendVarint(b, v.I)
		b = binary.AppendVarint(b, v.Hi)
	case Float, Double:
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v.F))
	case Boolean, TinyInt, SmallInt, Int, BigInt, Date, IPv4:
		b = binary.AppendVarint(b, v.I)
	default:
		b = binary.AppendUvarint(b, uint64(len(v.S)))
		b = append(b, v.S...)
	}
	return b
}

func readStateValue(b []byte) (Value, []byte, error) {
	if len(b) == 0 || Kind(b[0]) > AggState {
		return NullValue, nil, errCorruptAggState
	}
	v := Value{Kind: Kind(b[0])}
	b = b[1:]
	ok := true
	switch v.Kind {
	case Null:
	case Decimal, DateTime, TimestampTZ:
		if len(b) == 0 {
			return NullValue, nil, errCorruptAggState
		}
		v.Scale, b = int8(b[0]), b[1:]
		v.I, b, ok = readVarint(b)
		if ok && v.Kind == Decimal {
			v.Hi, b, ok = readVarint(b)
		}
	case LargeInt, IPv6:
		v.I, b, ok = readVarint(b)
		if ok {
			v.Hi, b, ok = readVarint(b)
		}
	case Float, Double:
		if len(b) < 8 {
			return NullValue, nil, errCorruptAggState
		}
		v.F, b = math.Float64frombits(binary.LittleEndian.Uint64(b)), b[8:]
	case Boolean, TinyInt, SmallInt, Int, BigInt, Date, IPv4:
		v.I, b, ok = readVarint(b)
	default:
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return NullValue, nil, errCorruptAggState
		}
		v.S, b = string(b[k:k+int(n)]), b[k+int(n):]
	}
	if !ok {
		return NullValue, nil, errCorruptAggState
	}
	return v, b, nil
}

func readVarint(b []byte) (int64, []byte, bool) {
	x, k := binary.Varint(b)
	if k <= 0 {
		return 0, nil, false
	}
	return x, b[k:], true
}
