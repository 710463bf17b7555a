package expr

import (
	"strconv"

	"loadgw/types"
)

// ipv4_cidr_to_range(ip, cidr) and ipv6_cidr_to_range(ip, cidr) of Doris's
// function_ip.h: the lowest and highest address of ip's network with a
// cidr-bit prefix, as STRUCT<min, max>. A cidr outside 0..32 (0..128) is
// Doris's error; NULL arguments give NULL.

var (
	tIPv4Range = types.StructOf([]types.StructField{{Name: "min", Type: types.Type{Kind: types.IPv4}}, {Name: "max", Type: types.Type{Kind: types.IPv4}}})
	tIPv6Range = types.StructOf([]types.StructField{{Name: "min", Type: types.Type{Kind: types.IPv6}}, {Name: "max", Type: types.Type{Kind: types.IPv6}}})
)

func illegalCIDR(c int64) error {
	return errorf("Illegal cidr value '%s'", strconv.FormatInt(c, 10))
}

func ipv4CIDRToRange(_ *Context, a []types.Value) (types.Value, error) {
	c := a[1].I
	if c < 0 || c > 32 {
		return types.NullValue, illegalCIDR(c)
	}
	ip := uint32(a[0].I)
	mask := uint32(0)
	if c > 0 {
		mask = ^uint32(0) << (32 - c)
	}
	lo := types.Value{Kind: types.IPv4, I: int64(ip & mask)}
	hi := types.Value{Kind: types.IPv4, I: int64(ip | ^mask)}
	return types.Nested{Type: tIPv4Range, Elems: []types.Value{lo, hi}}.Encode(), nil
}

func ipv6CIDRToRange(_ *Context, a []types.Value) (types.Value, error) {
	c := a[1].I
	if c < 0 || c > 128 {
		return types.NullValue, illegalCIDR(c)
	}
	hi, lo := uint64(a[0].Hi), uint64(a[0].I)
	if a[0].Kind != types.IPv6 {
		var ok bool
		if hi, lo, ok = parseIPv6OrMapped(a[0].S); !ok {
			return types.NullValue, errorf("Invalid IPv6 value '%s'", a[0].S)
		}
	}
	mhi, mlo := prefixMask(c, 0), prefixMask(c, 64)
	minV := types.Value{Kind: types.IPv6, Hi: int64(hi & mhi), I: int64(lo & mlo)}
	maxV := types.Value{Kind: types.IPv6, Hi: int64(hi | ^mhi), I: int64(lo | ^mlo)}
	return types.Nested{Type: tIPv6Range, Elems: []types.Value{minV, maxV}}.Encode(), nil
}

// prefixMask is the 64 bits from bit off of a 128-bit mask of c leading ones.
func prefixMask(c, off int64) uint64 {
	n := min(max(c-off, 0), 64)
	if n == 0 {
		return 0
	}
	return ^uint64(0) << (64 - n)
}

func init() {
	register(spec{min: 2, max: 2, args: []argKind{aIPv4, aInt}, ret: fixedType(tIPv4Range), fn: ipv4CIDRToRange}.def(), "ipv4_cidr_to_range")
	register(spec{min: 2, max: 2, args: []argKind{aIPv6OrStr, aInt}, ret: fixedType(tIPv6Range), fn: ipv6CIDRToRange}.def(), "ipv6_cidr_to_range")
}
