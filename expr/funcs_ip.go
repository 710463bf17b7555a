package expr

import (
	"strconv"
	"strings"

	"loadgw/types"
)

// The IPv4 functions over strings and integers, as Doris's function_ip.h
// and format_ip.h. The functions over the IPV4/IPV6 types are in
// funcs_ip_types.go.

// parseIPv4 parses a whole dotted quad as Doris's parse_ipv4_whole: four
// groups of 1 to 4 digits, each at most 255, separated by '.'.
func parseIPv4(s string) (uint32, bool) {
	var res uint32
	i := 0
	for octet := 0; octet < 4; octet++ {
		v, n := 0, 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' && n <= 3 {
			v = v*10 + int(s[i]-'0')
			n++
			i++
		}
		if n == 0 || v > 255 {
			return 0, false
		}
		res = res<<8 | uint32(v)
		if octet < 3 {
			if i >= len(s) || s[i] != '.' {
				return 0, false
			}
			i++
		}
	}
	return res, i == len(s)
}

func formatIPv4(x uint32) string {
	b := make([]byte, 0, 15)
	for i := 3; i >= 0; i-- {
		b = strconv.AppendUint(b, uint64(x>>(8*i)&0xff), 10)
		if i > 0 {
			b = append(b, '.')
		}
	}
	return string(b)
}

// ipv4NumToString is ipv4_num_to_string(n): NULL outside 0..2^32-1.
func ipv4NumToString(_ *Context, a []types.Value) (types.Value, error) {
	n := a[0].I
	if n < 0 || n > 0xffffffff {
		return types.NullValue, nil
	}
	return types.NewString(types.Varchar, formatIPv4(uint32(n))), nil
}

// ipv4StringToNum builds ipv4_string_to_num (invalid text is an error),
// _or_null and _or_default (0).
func ipv4StringToNum(mode byte) evalFn {
	return func(_ *Context, a []types.Value) (types.Value, error) {
		if a[0].IsNull() {
			if mode == 'd' {
				return types.NewInt(types.BigInt, 0), nil
			}
			return types.NullValue, nil
		}
		x, ok := parseIPv4(a[0].S)
		if !ok {
			switch mode {
			case 'e':
				return types.NullValue, errorf("Invalid IPv4 value")
			case 'd':
				return types.NewInt(types.BigInt, 0), nil
			}
			return types.NullValue, nil
		}
		return types.NewInt(types.BigInt, int64(x)), nil
	}
}

// isIPv4String is IPv4Value::is_valid_string: whitespace around the address
// is ignored.
func isIPv4String(_ *Context, a []types.Value) (types.Value, error) {
	_, ok := parseIPv4(strings.TrimSpace(a[0].S))
	return types.NewBool(ok), nil
}

func init() {
	vc := fixedType(types.Type{Kind: types.Varchar, Len: types.MaxVarcharLen})
	register(spec{min: 1, max: 1, args: []argKind{aInt}, ret: vc, fn: ipv4NumToString}.def(), "ipv4_num_to_string", "inet_ntoa")
	str := []argKind{aStr}
	register(spec{min: 1, max: 1, args: str, ret: fixedType(tBigInt), fn: ipv4StringToNum('e')}.def(), "ipv4_string_to_num")
	register(spec{min: 1, max: 1, args: str, ret: fixedType(tBigInt), fn: ipv4StringToNum('n')}.def(), "ipv4_string_to_num_or_null", "inet_aton")
	register(spec{min: 1, max: 1, args: str, ret: fixedType(tBigInt), fn: ipv4StringToNum('d'), seesNull: true}.def(), "ipv4_string_to_num_or_default")
	register(spec{min: 1, max: 1, args: str, ret: fixedType(tBool), fn: isIPv4String}.def(), "is_ipv4_string", "is_ipv4")
}
