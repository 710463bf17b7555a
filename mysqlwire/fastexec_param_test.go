package mysqlwire

import (
	"testing"

	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// TestReadParamIntegers reads each binary-protocol integer type
// (little-endian, two's complement when signed) into the bind variable
// the library makes of it, and refuses a value cut short.
func TestReadParamIntegers(t *testing.T) {
	for _, tc := range []struct {
		typ  querypb.Type
		b    []byte
		want string
		kind querypb.Type
	}{
		{querypb.Type_INT8, []byte{0xff}, "-1", querypb.Type_INT64},
		{querypb.Type_UINT8, []byte{0xff}, "255", querypb.Type_UINT64},
		{querypb.Type_INT16, []byte{0xfe, 0xff}, "-2", querypb.Type_INT64},
		{querypb.Type_YEAR, []byte{0xe8, 0x07}, "2024", querypb.Type_INT64},
		{querypb.Type_UINT16, []byte{0xff, 0xff}, "65535", querypb.Type_UINT64},
		{querypb.Type_INT24, []byte{0xff, 0xff, 0xff, 0xff}, "-1", querypb.Type_INT64},
		{querypb.Type_INT32, []byte{0x00, 0x00, 0x00, 0x80}, "-2147483648", querypb.Type_INT64},
		{querypb.Type_UINT32, []byte{0xff, 0xff, 0xff, 0xff}, "4294967295", querypb.Type_UINT64},
		{querypb.Type_INT64, []byte{0, 0, 0, 0, 0, 0, 0, 0x80}, "-9223372036854775808", querypb.Type_INT64},
		{querypb.Type_UINT64, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, "18446744073709551615", querypb.Type_UINT64},
	} {
		v := &querypb.BindVariable{}
		b := append([]byte{0xaa}, tc.b...) // the value after one byte
		pos, ok := readParam(v, tc.typ, b, 1)
		if !ok || pos != len(b) || v.Type != tc.kind || string(v.Value) != tc.want {
			t.Errorf("%v % x: %v at %d, %v %q; want %v %q at %d", tc.typ, tc.b, ok, pos, v.Type, v.Value, tc.kind, tc.want, len(b))
		}
		if _, ok := readParam(&querypb.BindVariable{}, tc.typ, b[:len(b)-1], 1); ok {
			t.Errorf("%v: a value one byte short was read", tc.typ)
		}
	}
}
