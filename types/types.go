// Package types implements the Doris column types that loadgw stores and
// computes with: their parsing from text, casts, comparison, arithmetic helpers
// and display formatting, following Apache Doris.
//
// A Value is a small tagged struct, not an interface, so rows are plain slices
// of values that can be reused without allocation.
package types

// Kind is the family of a type.
type Kind uint8

// The kinds. Null is the kind of the untyped NULL literal and of a NULL Value.
const (
	Null Kind = iota
	Boolean
	TinyInt
	SmallInt
	Int
	BigInt
	LargeInt
	Float
	Double
	Decimal
	Date
	DateTime
	TimestampTZ
	Char
	Varchar
	String
	JSON
	Variant       // semi-structured JSON; see ParseVariant
	Bitmap        // the hidden skip-bitmap column of flexible partial update
	Array         // ARRAY<T>; Value.S holds the nested encoding (types/nested_codec.go)
	Map           // MAP<K, V>; Value.S as Array
	Struct        // STRUCT<name: T, ...>; Value.S as Array
	IPv4          // IPV4: I is the address as an unsigned 32-bit number (see ip.go)
	IPv6          // IPV6: Hi:I is the address as an unsigned 128-bit number
	HLL           // HLL: S is Doris's serialized HyperLogLog (see hll.go)
	QuantileState // QUANTILE_STATE: S is the serialized state (see quantile.go)
	AggState      // AGG_STATE<fn(args)>: S is the encoded state (see aggstate.go)
)

// MaxVarcharLen is Doris's upper bound for VARCHAR(n); STRING holds up to 2 GiB.
const MaxVarcharLen = 65533

// Type is a column or expression type.
type Type struct {
	Kind Kind
	// Len is the declared length of CHAR(n) / VARCHAR(n), in bytes as in Doris.
	// VARCHAR without a length has Len = MaxVarcharLen.
	Len int32
	// Precision is the DECIMAL precision, 1..38.
	Precision int8
	// Scale is the DECIMAL scale, or the fractional-second digits 0..6 of
	// DATETIME(p) and TIMESTAMPTZ(p).
	Scale int8
	// Nested describes the elements of ARRAY, MAP and STRUCT; nil for every
	// other kind. Compare types with Equal, never with ==.
	Nested *NestedType `json:",omitempty"`
	// State describes AGG_STATE<fn(args)>; nil for every other kind.
	State *AggStateType `json:",omitempty"`
	// Variant is the schema template of VARIANT<...> (typed paths and
	// properties); nil for a plain VARIANT and every other kind.
	Variant *VariantDef `json:",omitempty"`
}

// Value is one datum. The zero Value is NULL.
//
// Representation by kind:
//   - Boolean: I is 0 or 1.
//   - TinyInt, SmallInt, Int, BigInt: I.
//   - LargeInt: the 128-bit two's complement integer Hi:uint64(I).
//   - Decimal: the unscaled 128-bit integer Hi:uint64(I); Scale is its scale.
//   - Float, Double: F (Float values are rounded to float32 precision).
//   - Date: I is days since 1970-01-01.
//   - DateTime: I is microseconds since 1970-01-01 00:00:00, without a time zone.
//   - TimestampTZ: I is microseconds since the Unix epoch (UTC); Scale as DateTime.
//   - Char, Varchar, String: S.
//   - JSON: S holds the canonical JSON text.
//   - Variant: S holds the JSON text Doris prints for it (see ParseVariant).
//   - Bitmap: S holds the serialized bitmap.
//   - Array, Map, Struct: S holds the self-describing nested encoding (the
//     type's signature, then the elements); see types/nested_codec.go.
//   - IPv4: I is the address 0..2^32-1; IPv6: the unsigned 128-bit address
//     Hi:uint64(I).
type Value struct {
	Kind  Kind
	Scale int8
	I     int64
	Hi    int64
	F     float64
	S     string
}

// IsNull reports whether v is NULL.
func (v Value) IsNull() bool { return v.Kind == Null }

// NullValue is the NULL datum.
var NullValue = Value{}

// NewBool returns a Boolean value.
func NewBool(b bool) Value {
	if b {
		return Value{Kind: Boolean, I: 1}
	}
	return Value{Kind: Boolean}
}

// NewInt returns an integer value of kind k (TinyInt..BigInt, Date, DateTime).
func NewInt(k Kind, i int64) Value { return Value{Kind: k, I: i} }

// NewFloat returns a Float or Double value.
func NewFloat(k Kind, f float64) Value { return Value{Kind: k, F: f} }

// NewString returns a string value of kind k (Char, Varchar, String, JSON).
func NewString(k Kind, s string) Value { return Value{Kind: k, S: s} }
