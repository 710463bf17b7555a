package types

import (
	"encoding/binary"
	"math"
	"strconv"
	"sync"
)

// The nested encoding. A value of kind Array, Map or Struct holds in S
//
//	signature | body
//
// The signature spells the value's type, so a nested value is
// self-describing: it formats, compares and decodes without its column.
//
//	signature = kind byte, then by kind:
//	  CHAR, VARCHAR            uvarint length
//	  DECIMAL                  precision byte, scale byte
//	  DATETIME, TIMESTAMPTZ    scale byte
//	  ARRAY                    not-null byte, element signature
//	  MAP                      key signature, value signature
//	  STRUCT                   uvarint n, n × (uvarint name length, name,
//	                           not-null byte, field signature)
//
//	body of ARRAY  = uvarint n, NULL bitmap of n bits, each non-NULL element
//	body of MAP    = uvarint n, NULL bitmap of 2n bits (key i at bit 2i,
//	                 value i at 2i+1), key 0, value 0, key 1, ...
//	body of STRUCT = NULL bitmap of one bit per field, each non-NULL field
//
// Elements use the row encoding of storage/rowenc.go (zigzag varints for
// integers and temporal values, DECIMAL up to precision 18 as a varint and
// wider as 16 bytes, FLOAT 4 bytes, DOUBLE 8, strings as uvarint length and
// bytes); a nested element is its body with a uvarint length in front.
//
// Storage keeps only the body of a column value whose type is the column's
// (storage/rowenc.go), so the signature costs nothing on disk.

func itoa(i int) string { return strconv.Itoa(i) }

// Sig is the signature of the nested type t. REQUIRES: IsNested(t.Kind).
func (t Type) Sig() string {
	if t.Nested.sig != "" {
		return t.Nested.sig
	}
	return string(appendSig(nil, t))
}

func appendSig(b []byte, t Type) []byte {
	b = append(b, byte(t.Kind))
	switch t.Kind {
	case Char, Varchar:
		b = binary.AppendUvarint(b, uint64(t.Len))
	case Decimal:
		b = append(b, byte(t.Precision), byte(t.Scale))
	case DateTime, TimestampTZ:
		b = append(b, byte(t.Scale))
	case Array:
		b = append(b, boolByte(t.Nested.ElemNotNull))
		b = appendSig(b, t.Nested.Elem)
	case Map:
		b = appendSig(b, t.Nested.Elem)
		b = appendSig(b, t.Nested.Value)
	case Struct:
		b = binary.AppendUvarint(b, uint64(len(t.Nested.Fields)))
		for _, f := range t.Nested.Fields {
			b = binary.AppendUvarint(b, uint64(len(f.Name)))
			b = append(b, f.Name...)
			b = append(b, boolByte(f.NotNull))
			b = appendSig(b, f.Type)
		}
	}
	return b
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// reader decodes from a string without copying.
type reader struct {
	s   string
	err bool
}

func (r *reader) byte() byte {
	if len(r.s) == 0 {
		r.err = true
		return 0
	}
	c := r.s[0]
	r.s = r.s[1:]
	return c
}

func (r *reader) uvarint() uint64 {
	var x uint64
	var s uint
	for i := 0; i < len(r.s) && i < binary.MaxVarintLen64; i++ {
		c := r.s[i]
		if c < 0x80 {
			r.s = r.s[i+1:]
			return x | uint64(c)<<s
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
	r.err = true
	r.s = ""
	return 0
}

func (r *reader) varint() int64 {
	u := r.uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

func (r *reader) take(n uint64) string {
	if uint64(len(r.s)) < n {
		r.err = true
		r.s = ""
		return ""
	}
	out := r.s[:n]
	r.s = r.s[n:]
	return out
}

func (r *reader) fixed64() uint64 {
	s := r.take(8)
	if len(s) < 8 {
		return 0
	}
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// sigCache maps signatures to their types, so that decoding a value does
// not rebuild its type. It is bounded: client-written literals can make
// any number of distinct struct types.
var sigCache struct {
	sync.RWMutex
	m map[string]Type
}

const maxSigCache = 4096

// typeOfSig reads the signature at the front of s and returns its type and
// the body after it.
func typeOfSig(s string) (Type, string, error) {
	r := reader{s: s}
	skipSig(&r, 0)
	if r.err {
		return Type{}, "", errCorruptNested
	}
	sig, body := s[:len(s)-len(r.s)], r.s
	sigCache.RLock()
	ct, ok := sigCache.m[sig]
	sigCache.RUnlock()
	if ok {
		return ct, body, nil
	}
	r = reader{s: sig}
	t := readSig(&r, 0)
	if r.err {
		return Type{}, "", errCorruptNested
	}
	sigCache.Lock()
	if sigCache.m == nil {
		sigCache.m = map[string]Type{}
	}
	if len(sigCache.m) < maxSigCache {
		sigCache.m[sig] = t
	}
	sigCache.Unlock()
	return t, body, nil
}

// skipSig steps over a signature without building its type.
func skipSig(r *reader, depth int) {
	if depth > MaxNestingDepth+1 {
		r.err = true
		return
	}
	switch Kind(r.byte()) {
	case Char, Varchar:
		r.uvarint()
	case Decimal:
		r.take(2)
	case DateTime, TimestampTZ:
		r.byte()
	case Array:
		r.byte()
		skipSig(r, depth+1)
	case Map:
		skipSig(r, depth+1)
		skipSig(r, depth+1)
	case Struct:
		n := r.uvarint()
		for i := uint64(0); i < n && !r.err; i++ {
			r.take(r.uvarint())
			r.byte()
			skipSig(r, depth+1)
		}
	}
}

var errCorruptNested = newError(ErrInvalidValue, "corrupt nested value")

func readSig(r *reader, depth int) Type {
	if depth > MaxNestingDepth+1 {
		r.err = true
		return Type{}
	}
	t := Type{Kind: Kind(r.byte())}
	switch t.Kind {
	case Char, Varchar:
		t.Len = int32(r.uvarint())
	case Decimal:
		t.Precision, t.Scale = int8(r.byte()), int8(r.byte())
	case DateTime, TimestampTZ:
		t.Scale = int8(r.byte())
	case Array:
		nn := r.byte() != 0
		t = ArrayOf(readSig(r, depth+1), nn)
	case Map:
		k := readSig(r, depth+1)
		t = MapOf(k, readSig(r, depth+1))
	case Struct:
		n := r.uvarint()
		if n > uint64(len(r.s)) {
			r.err = true
			return Type{}
		}
		fs := make([]StructField, 0, n)
		for i := uint64(0); i < n && !r.err; i++ {
			name := r.take(r.uvarint())
			nn := r.byte() != 0
			fs = append(fs, StructField{Name: name, NotNull: nn, Type: readSig(r, depth+1)})
		}
		t = StructOf(fs)
	}
	return t
}

// NestedType returns the type spelled by the signature of a nested value.
func NestedTypeOf(v Value) (Type, error) {
	t, _, err := typeOfSig(v.S)
	return t, err
}

// appendElem appends one non-NULL element of type t. REQUIRES: v has t's
// kind (and a nested v has exactly type t).
func appendElem(b []byte, v Value, t Type) []byte {
	switch t.Kind {
	case Boolean:
		return append(b, byte(v.I))
	case TinyInt, SmallInt, Int, BigInt, Date, DateTime, TimestampTZ, IPv4:
		return binary.AppendVarint(b, v.I)
	case Decimal:
		if t.Precision <= 18 {
			return binary.AppendVarint(b, v.I)
		}
		b = binary.LittleEndian.AppendUint64(b, uint64(v.I))
		return binary.LittleEndian.AppendUint64(b, uint64(v.Hi))
	case LargeInt, IPv6:
		b = binary.LittleEndian.AppendUint64(b, uint64(v.I))
		return binary.LittleEndian.AppendUint64(b, uint64(v.Hi))
	case Float:
		return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v.F)))
	case Double:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.F))
	case Array, Map, Struct:
		body := v.S[len(t.Sig()):]
		b = binary.AppendUvarint(b, uint64(len(body)))
		return append(b, body...)
	case Null:
		return b
	}
	b = binary.AppendUvarint(b, uint64(len(v.S)))
	return append(b, v.S...)
}

// readElem decodes one non-NULL element of type t.
func readElem(r *reader, t Type) Value {
	v := Value{Kind: t.Kind}
	switch t.Kind {
	case Boolean:
		v.I = int64(r.byte())
	case TinyInt, SmallInt, Int, BigInt, Date, IPv4:
		v.I = r.varint()
	case DateTime, TimestampTZ:
		v.I, v.Scale = r.varint(), t.Scale
	case Decimal:
		v.Scale = t.Scale
		if t.Precision <= 18 {
			v.I = r.varint()
			if v.I < 0 {
				v.Hi = -1
			}
			return v
		}
		v.I, v.Hi = int64(r.fixed64()), int64(r.fixed64())
	case LargeInt, IPv6:
		v.I, v.Hi = int64(r.fixed64()), int64(r.fixed64())
	case Float:
		s := r.take(4)
		if len(s) == 4 {
			v.F = float64(math.Float32frombits(uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24))
		}
	case Double:
		v.F = math.Float64frombits(r.fixed64())
	case Array, Map, Struct:
		v.S = t.Sig() + r.take(r.uvarint())
	case Null:
		return NullValue
	default:
		v.S = r.take(r.uvarint())
	}
	return v
}

func isNullBit(bits string, i int) bool { return bits[i/8]&(1<<(i%8)) != 0 }

// Nested is a decoded ARRAY, MAP or STRUCT value.
type Nested struct {
	Type Type
	// Elems are the ARRAY elements, the MAP keys and values interleaved
	// (key i at 2i, value i at 2i+1), or the STRUCT fields.
	Elems []Value
}

// Len is the number of ARRAY elements, MAP entries or STRUCT fields.
func (n Nested) Len() int {
	if n.Type.Kind == Map {
		return len(n.Elems) / 2
	}
	return len(n.Elems)
}

// elemType is the type of Elems[i].
func (n Nested) elemType(i int) Type {
	switch n.Type.Kind {
	case Array:
		return n.Type.Nested.Elem
	case Map:
		if i%2 == 0 {
			return n.Type.Nested.Elem
		}
		return n.Type.Nested.Value
	}
	return n.Type.Nested.Fields[i].Type
}

// Decode decodes a nested value. The string elements alias v.S.
func Decode(v Value) (Nested, error) {
	t, body, err := typeOfSig(v.S)
	if err != nil {
		return Nested{}, err
	}
	if t.Kind != v.Kind {
		return Nested{}, errCorruptNested
	}
	return decodeBody(t, body)
}

func decodeBody(t Type, body string) (Nested, error) {
	r := reader{s: body}
	n := Nested{Type: t}
	var count int
	switch t.Kind {
	case Array:
		count = int(min(r.uvarint(), uint64(len(body))*8))
	case Map:
		count = 2 * int(min(r.uvarint(), uint64(len(body))*4))
	case Struct:
		count = len(t.Nested.Fields)
	default:
		return n, errCorruptNested
	}
	bits := r.take(uint64((count + 7) / 8))
	if r.err {
		return n, errCorruptNested
	}
	n.Elems = make([]Value, count)
	for i := range n.Elems {
		if isNullBit(bits, i) {
			continue
		}
		n.Elems[i] = readElem(&r, n.elemType(i))
		if r.err {
			return n, errCorruptNested
		}
	}
	return n, nil
}

// Encode builds the value of n. REQUIRES: every element has the kind of its
// element type (Coerce converts them) or is NULL.
func (n Nested) Encode() Value {
	b := make([]byte, 0, 16+8*len(n.Elems))
	b = append(b, n.Type.Sig()...)
	if n.Type.Kind != Struct {
		b = binary.AppendUvarint(b, uint64(n.Len()))
	}
	start := len(b)
	for i := 0; i < (len(n.Elems)+7)/8; i++ {
		b = append(b, 0)
	}
	for i, e := range n.Elems {
		if e.IsNull() {
			b[start+i/8] |= 1 << (i % 8)
			continue
		}
		b = appendElem(b, e, n.elemType(i))
	}
	return Value{Kind: n.Type.Kind, S: string(b)}
}

// Body is the encoding of v without its signature, as storage keeps it.
// ok is false when v's type is not t.
func Body(v Value, t Type) (string, bool) {
	sig := t.Sig()
	if len(v.S) < len(sig) || v.S[:len(sig)] != sig {
		return "", false
	}
	return v.S[len(sig):], true
}

// FromBody rebuilds a value of nested type t from its Body.
func FromBody(t Type, body []byte) Value {
	sig := t.Sig()
	b := make([]byte, 0, len(sig)+len(body))
	b = append(append(b, sig...), body...)
	return Value{Kind: t.Kind, S: string(b)}
}
