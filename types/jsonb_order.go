package types

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Doris's JSONB type bytes (be/src/util/jsonb_document.h, JsonbType).
const (
	jsonbNull    = 0x00
	jsonbTrue    = 0x01
	jsonbFalse   = 0x02
	jsonbInt8    = 0x03
	jsonbInt16   = 0x04
	jsonbInt32   = 0x05
	jsonbInt64   = 0x06
	jsonbDouble  = 0x07
	jsonbString  = 0x08
	jsonbObject  = 0x0A
	jsonbArray   = 0x0B
	jsonbInt128  = 0x0C
	jsonbEmptyID = 0xFFFF // JsonbKeyValue::sMaxKeyId, written for an empty key
)

// compareJSON orders two JSON texts as Doris's BE orders a JSONB column:
// ColumnString::compare_at, bytewise over the JSONB binary that
// JsonbParser writes. So values order by type byte first (null, true,
// false, the integer widths, double, string, object, array, int128), then
// by their little-endian payloads: an integer's two's-complement bytes, a
// double's IEEE bytes, a string's or container's 4-byte size before its
// content, object keys as a length byte and the key. Text that does not
// decode compares bytewise after every decodable value.
func compareJSON(a, b string) int {
	if a == b {
		return 0
	}
	ka, oka := jsonbKey(a)
	kb, okb := jsonbKey(b)
	switch {
	case oka && okb:
		if c := bytes.Compare(ka, kb); c != 0 {
			return c
		}
	case oka:
		return -1
	case okb:
		return 1
	}
	return strings.Compare(a, b)
}

// jsonbKey is the JSONB encoding of s without the version header, which
// is the same for every document.
func jsonbKey(s string) ([]byte, bool) {
	n, ok := decodeJSONTree(s)
	if !ok {
		return nil, false
	}
	return appendJSONBBinary(make([]byte, 0, len(s)+8), n), true
}

func appendJSONBBinary(b []byte, n *jtree) []byte {
	switch n.kind {
	case jNull:
		return append(b, jsonbNull)
	case jBool:
		if n.b {
			return append(b, jsonbTrue)
		}
		return append(b, jsonbFalse)
	case jNum:
		return appendJSONBNumber(b, n.s)
	case jStr:
		b = append(b, jsonbString)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(n.s)))
		return append(b, n.s...)
	case jArr, jObj:
		typ := byte(jsonbArray)
		if n.kind == jObj {
			typ = jsonbObject
		}
		b = append(b, typ, 0, 0, 0, 0)
		start := len(b)
		for i, kid := range n.kids {
			if n.kind == jObj {
				k := n.keys[i]
				if len(k) > math.MaxUint8 { // Doris refuses such a key at parse time
					k = k[:math.MaxUint8]
				}
				b = append(b, byte(len(k)))
				if k == "" {
					b = binary.LittleEndian.AppendUint16(b, jsonbEmptyID)
				} else {
					b = append(b, k...)
				}
			}
			b = appendJSONBBinary(b, kid)
		}
		binary.LittleEndian.PutUint32(b[start-4:start], uint32(len(b)-start))
		return b
	}
	panic("BUG: unknown JSON node kind")
}

var (
	maxInt128 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))
	minInt128 = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 127))
)

// appendJSONBNumber writes a number as JsonbParser's write_number: an
// integer token in the narrowest of INT8..INT64, then INT128, else (and
// for every token with a fraction or exponent) a DOUBLE.
func appendJSONBNumber(b []byte, tok string) []byte {
	if !strings.ContainsAny(tok, ".eE") {
		if v, err := strconv.ParseInt(tok, 10, 64); err == nil {
			switch {
			case v >= math.MinInt8 && v <= math.MaxInt8:
				return append(b, jsonbInt8, byte(int8(v)))
			case v >= math.MinInt16 && v <= math.MaxInt16:
				return binary.LittleEndian.AppendUint16(append(b, jsonbInt16), uint16(int16(v)))
			case v >= math.MinInt32 && v <= math.MaxInt32:
				return binary.LittleEndian.AppendUint32(append(b, jsonbInt32), uint32(int32(v)))
			}
			return binary.LittleEndian.AppendUint64(append(b, jsonbInt64), uint64(v))
		}
		if v, ok := new(big.Int).SetString(tok, 10); ok && v.Cmp(minInt128) >= 0 && v.Cmp(maxInt128) <= 0 {
			// Two's complement in 128 bits, little-endian.
			u := new(big.Int).Set(v)
			if v.Sign() < 0 {
				u.Add(u, new(big.Int).Lsh(big.NewInt(1), 128))
			}
			var be [16]byte
			u.FillBytes(be[:])
			b = append(b, jsonbInt128)
			for i := 15; i >= 0; i-- {
				b = append(b, be[i])
			}
			return b
		}
	}
	f, _ := strconv.ParseFloat(tok, 64) // out of range: ±Inf, as string_to_float
	return binary.LittleEndian.AppendUint64(append(b, jsonbDouble), math.Float64bits(f))
}
