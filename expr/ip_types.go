package expr

import "loadgw/types"

// Type rules of the IPV4 and IPV6 column types, as Nereids: an IP meets a
// string as the IP type (the text is cast), IPV4 meets IPV6 as IPV6.

var (
	tIPv4 = types.Type{Kind: types.IPv4}
	tIPv6 = types.Type{Kind: types.IPv6}
)

func isIP(k types.Kind) bool { return k == types.IPv4 || k == types.IPv6 }

// ipCommon is the common type of a and b when one of them is an IP type.
func ipCommon(a, b types.Type) (types.Type, bool) {
	if !isIP(a.Kind) && !isIP(b.Kind) {
		return types.Type{}, false
	}
	if isIP(b.Kind) && !isIP(a.Kind) {
		a, b = b, a
	}
	switch {
	case isIP(b.Kind):
		if a.Kind == types.IPv6 || b.Kind == types.IPv6 {
			return tIPv6, true
		}
		return tIPv4, true
	case isString(b.Kind):
		return a, true
	}
	return types.Type{}, false
}

// convertIPArg converts a function argument for the IP argument kinds.
func convertIPArg(c Compiled, k argKind) Compiled {
	t := c.Type().Kind
	switch {
	case t == types.Null:
		return c
	case k == aIPv4:
		return toKind(c, tIPv4)
	case k == aIPv6:
		return toKind(c, tIPv6)
	case k == aIPv6OrStr && (t == types.IPv6 || isString(t)):
		return c
	case k == aIPv6OrStr:
		return toKind(c, tIPv6)
	case isIP(t) || isString(t):
		return c
	}
	return &castNode{x: c, to: tVarchar}
}
