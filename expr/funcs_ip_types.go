package expr

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"strings"

	"loadgw/types"
)

// The functions over the IPV4 and IPV6 types, as Doris's function_ip.h and
// ip_address_cidr.h: to_ipv4/to_ipv6 and their _or_null/_or_default forms,
// ipv4_to_ipv6, ipv6_num_to_string, ipv6_string_to_num*, is_ipv6_string,
// is_ipv4_compat, is_ipv4_mapped, is_ip_address_in_range, cut_ipv6 and
// ipv6_from_uint128_string_or_null. (ipv4_cidr_to_range and
// ipv6_cidr_to_range return a STRUCT and wait for that type.)

// toIP builds to_ipv4/to_ipv6 (mode 'e': invalid text is an error), _or_null
// ('n') and _or_default ('d': the zero address).
func toIP(k types.Kind, mode byte) evalFn {
	name := "to_" + k.String()
	return func(_ *Context, a []types.Value) (types.Value, error) {
		if a[0].IsNull() {
			switch mode {
			case 'e':
				return types.NullValue, errorf("The arguments of function %s must be String, not NULL", name)
			case 'd':
				return types.Zero(types.Type{Kind: k}), nil
			}
			return types.NullValue, nil
		}
		v, err := types.ParseValue(a[0].S, types.Type{Kind: k}, nil)
		if err == nil {
			return v, nil
		}
		switch mode {
		case 'e':
			if k == types.IPv4 {
				return types.NullValue, errorf("Invalid IPv4 value '%s'", a[0].S)
			}
			return types.NullValue, errorf("Invalid IPv6 value '%s'", a[0].S)
		case 'd':
			return types.Zero(types.Type{Kind: k}), nil
		}
		return types.NullValue, nil
	}
}

func ipv4ToIPv6(_ *Context, a []types.Value) (types.Value, error) {
	return types.IPv4ToIPv6(uint32(a[0].I)), nil
}

// ipv6NumToString formats an IPV6 value, or a binary string of at most 16
// bytes (big endian, zero-padded at the end); other strings give NULL.
func ipv6NumToString(_ *Context, a []types.Value) (types.Value, error) {
	v := a[0]
	if v.Kind != types.IPv6 {
		if len(v.S) == 0 || len(v.S) > 16 {
			return types.NullValue, nil
		}
		var b [16]byte
		copy(b[:], v.S)
		v = types.NewIPv6(binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:]))
	}
	hi, lo := types.IPv6Parts(v)
	return types.NewString(types.Varchar, string(types.AppendIPv6(nil, hi, lo))), nil
}

// ipv6StringToNum builds ipv6_string_to_num (mode 'e'), _or_null ('n') and
// _or_default ('d'): the 16 bytes of the address, big endian; IPv4 text
// gives its ::ffff: mapped address.
func ipv6StringToNum(mode byte) evalFn {
	return func(_ *Context, a []types.Value) (types.Value, error) {
		var b [16]byte
		if a[0].IsNull() {
			switch mode {
			case 'e':
				return types.NullValue, errorf("Null Input, you may consider convert it to a valid default IPv6 value like '::' first")
			case 'd':
				return types.NewString(types.Varchar, string(b[:])), nil
			}
			return types.NullValue, nil
		}
		hi, lo, ok := parseIPv6OrMapped(a[0].S)
		if !ok {
			switch mode {
			case 'e':
				return types.NullValue, errorf("Invalid IPv6 value")
			case 'n':
				return types.NullValue, nil
			}
		}
		binary.BigEndian.PutUint64(b[:8], hi)
		binary.BigEndian.PutUint64(b[8:], lo)
		return types.NewString(types.Varchar, string(b[:])), nil
	}
}

// parseIPv6OrMapped parses IPv6 text, or IPv4 text as ::ffff:a.b.c.d (the
// IPv4 test reads a prefix, as Doris's try_parse_ipv4 does not need the
// whole text).
func parseIPv6OrMapped(s string) (hi, lo uint64, ok bool) {
	if s == "" {
		return 0, 0, false
	}
	if _, ok := types.ParseIPv4(s); ok {
		return types.ParseIPv6("::ffff:" + s)
	}
	return types.ParseIPv6(s)
}

func isIPv6String(_ *Context, a []types.Value) (types.Value, error) {
	s := a[0].S
	if len(s) == 0 || len(s) > 39 {
		return types.NewBool(false), nil
	}
	_, _, ok := types.ParseIPv6(strings.TrimSpace(s))
	return types.NewBool(ok), nil
}

// isIPv4Compat and isIPv4Mapped read a 16-byte binary address as Doris does
// (the first 16 bytes, big endian).
func isIPv4Compat(_ *Context, a []types.Value) (types.Value, error) {
	hi, lo, ok := binaryIPv6(a[0].S)
	return types.NewBool(ok && hi == 0 && lo>>32 == 0 && uint32(lo) != 0), nil
}

func isIPv4Mapped(_ *Context, a []types.Value) (types.Value, error) {
	hi, lo, ok := binaryIPv6(a[0].S)
	return types.NewBool(ok && hi == 0 && lo>>32 == 0xffff), nil
}

func binaryIPv6(s string) (hi, lo uint64, ok bool) {
	if len(s) < 16 {
		return 0, 0, false
	}
	return binary.BigEndian.Uint64([]byte(s[:8])), binary.BigEndian.Uint64([]byte(s[8:16])), true
}

// cutIPv6 is cut_ipv6(ip, n6, n4): the text of ip with its last n6 bytes
// (n4 for an IPv4-mapped address) zeroed, as format_ipv6 with
// zeroed_tail_bytes_count.
func cutIPv6(_ *Context, a []types.Value) (types.Value, error) {
	for i := 1; i <= 2; i++ {
		if a[i].I > 16 {
			return types.NullValue, errorf("Illegal value for argument %d TINYINT of function cut_ipv6", i+1)
		}
	}
	hi, lo := types.IPv6Parts(a[0])
	n := a[1].I
	if hi == 0 && lo>>32 == 0xffff {
		n = a[2].I
	}
	return types.NewString(types.String, string(types.AppendIPv6Cut(nil, hi, lo, int(uint8(n))))), nil
}

// ipv6FromUint128String reads a decimal unsigned number (wrapping modulo
// 2^128 as Doris's uint128 arithmetic does); any other character gives NULL.
func ipv6FromUint128String(_ *Context, a []types.Value) (types.Value, error) {
	var hi, lo uint64
	for i := 0; i < len(a[0].S); i++ {
		c := a[0].S[i]
		if c < '0' || c > '9' {
			return types.NullValue, nil
		}
		h1, l1 := bits.Mul64(lo, 10)
		hi = hi*10 + h1
		var carry uint64
		lo, carry = bits.Add64(l1, uint64(c-'0'), 0)
		hi += carry
	}
	return types.NewIPv6(hi, lo), nil
}

// isIPAddressInRange is is_ip_address_in_range(addr, cidr) over text, IPV4
// or IPV6 addresses.
func isIPAddressInRange(_ *Context, a []types.Value) (types.Value, error) {
	cidr := a[1].S
	if cidr == "" {
		return types.NewBool(false), nil
	}
	c, err := parseCIDR(cidr)
	if err != nil {
		return types.NullValue, err
	}
	var addr ipAddr
	switch a[0].Kind {
	case types.IPv4:
		// Doris tests the CIDR's IPv4 address for zero, so 0.0.0.0/n matches nothing.
		if c.v6 || c.lo == 0 {
			return types.NewBool(false), nil
		}
		addr = ipAddr{lo: uint64(a[0].I)}
	case types.IPv6:
		if !c.v6 {
			return types.NewBool(false), nil
		}
		hi, lo := types.IPv6Parts(a[0])
		addr = ipAddr{v6: true, hi: hi, lo: lo}
	default:
		if addr, err = parseIPAddr(a[0].S); err != nil {
			return types.NullValue, err
		}
	}
	return types.NewBool(addr.v6 == c.v6 && c.matches(addr)), nil
}

// ipAddr is an IPv4 (lo) or IPv6 (hi:lo) address.
type ipAddr struct {
	v6     bool
	hi, lo uint64
	prefix int
}

func parseIPAddr(s string) (ipAddr, error) {
	if x, ok := types.ParseIPv4(s); ok {
		return ipAddr{lo: uint64(x)}, nil
	}
	hi, lo, ok := types.ParseIPv6(s)
	if !ok {
		return ipAddr{}, errorf("Neither IPv4 nor IPv6 address: '%s'", s)
	}
	return ipAddr{v6: true, hi: hi, lo: lo}, nil
}

// parseCIDR is Doris's parse_ip_with_cidr.
func parseCIDR(s string) (ipAddr, error) {
	slash := strings.IndexByte(s, '/')
	switch {
	case slash == 0:
		return ipAddr{}, errorf("Error parsing IP address with prefix: %s", s)
	case slash < 0:
		return ipAddr{}, errorf("The text does not contain '/': %s", s)
	}
	c, err := parseIPAddr(s[:slash])
	if err != nil {
		return c, err
	}
	max := 32
	if c.v6 {
		max = 128
	}
	p, err := strconv.ParseUint(s[slash+1:], 10, 8)
	if err != nil || int(p) > max || strings.HasPrefix(s[slash+1:], "+") {
		return c, errorf("The CIDR has a malformed prefix bits: %s", s)
	}
	c.prefix = int(p)
	return c, nil
}

// matches reports whether the first prefix bits of a equal c's.
func (c ipAddr) matches(a ipAddr) bool {
	if !c.v6 {
		mask := uint32(0xffffffff)
		if c.prefix < 32 {
			mask = ^(mask >> c.prefix)
		}
		return uint32(a.lo)&mask == uint32(c.lo)&mask
	}
	hm, lm := ^uint64(0), ^uint64(0)
	switch {
	case c.prefix <= 64:
		hm, lm = ^(^uint64(0) >> c.prefix), 0
		if c.prefix == 0 {
			hm = 0
		}
	case c.prefix < 128:
		lm = ^(^uint64(0) >> (c.prefix - 64))
	}
	return a.hi&hm == c.hi&hm && a.lo&lm == c.lo&lm
}

func init() {
	str := []argKind{aStr}
	v4, v6 := fixedType(tIPv4), fixedType(tIPv6)
	vc := fixedType(tVarchar)
	for _, m := range []struct {
		suffix string
		mode   byte
	}{{"", 'e'}, {"_or_null", 'n'}, {"_or_default", 'd'}} {
		see := m.mode != 'n'
		register(spec{min: 1, max: 1, args: str, ret: v4, fn: toIP(types.IPv4, m.mode), seesNull: see}.def(), "to_ipv4"+m.suffix)
		register(spec{min: 1, max: 1, args: str, ret: v6, fn: toIP(types.IPv6, m.mode), seesNull: see}.def(), "to_ipv6"+m.suffix)
	}
	register(spec{min: 1, max: 1, args: str, ret: vc, fn: ipv6StringToNum('e'), seesNull: true}.def(), "ipv6_string_to_num")
	register(spec{min: 1, max: 1, args: str, ret: vc, fn: ipv6StringToNum('d'), seesNull: true}.def(), "ipv6_string_to_num_or_default")
	register(spec{min: 1, max: 1, args: str, ret: vc, fn: ipv6StringToNum('n')}.def(), "ipv6_string_to_num_or_null", "inet6_aton")
	register(spec{min: 1, max: 1, args: []argKind{aIPv4}, ret: v6, fn: ipv4ToIPv6}.def(), "ipv4_to_ipv6")
	register(spec{min: 1, max: 1, args: []argKind{aIPv6OrStr}, ret: vc, fn: ipv6NumToString}.def(), "ipv6_num_to_string", "inet6_ntoa")
	register(spec{min: 1, max: 1, args: str, ret: fixedType(tBool), fn: isIPv6String}.def(), "is_ipv6_string", "is_ipv6")
	register(spec{min: 1, max: 1, args: str, ret: fixedType(tBool), fn: isIPv4Compat}.def(), "is_ipv4_compat")
	register(spec{min: 1, max: 1, args: str, ret: fixedType(tBool), fn: isIPv4Mapped}.def(), "is_ipv4_mapped")
	register(spec{min: 3, max: 3, args: []argKind{aIPv6, aInt, aInt}, ret: fixedType(tString), fn: cutIPv6}.def(), "cut_ipv6")
	register(spec{min: 1, max: 1, args: str, ret: v6, fn: ipv6FromUint128String}.def(), "ipv6_from_uint128_string_or_null")
	register(spec{min: 2, max: 2, args: []argKind{aIPOrStr, aStr}, ret: fixedType(tBool), fn: isIPAddressInRange}.def(), "is_ip_address_in_range")
}
