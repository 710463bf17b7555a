package types

import "strconv"

// IPV4 and IPV6 values, as Doris's IPv4Value / IPv6Value (be/src/vec/runtime)
// and format_ip.h.
//
// Representation: an IPV4 value holds the address as an unsigned 32-bit
// number in I ("127.0.0.1" is 0x7f000001); an IPV6 value holds the 128-bit
// address as an unsigned number, the high 64 bits in Hi and the low 64 bits in
// I (both as the bits of a uint64). Both order as unsigned numbers, as Doris
// compares them.

// NewIPv4 returns an IPV4 value.
func NewIPv4(x uint32) Value { return Value{Kind: IPv4, I: int64(x)} }

// NewIPv6 returns an IPV6 value of the address hi:lo.
func NewIPv6(hi, lo uint64) Value { return Value{Kind: IPv6, Hi: int64(hi), I: int64(lo)} }

// IPv6Parts returns the high and low 64 bits of an IPV6 value.
func IPv6Parts(v Value) (hi, lo uint64) { return uint64(v.Hi), uint64(v.I) }

// IPv4ToIPv6 maps an IPv4 address into IPv6 as ::ffff:a.b.c.d (Doris's
// map_ipv4_to_ipv6).
func IPv4ToIPv6(x uint32) Value { return NewIPv6(0, 0xffff<<32|uint64(x)) }

// ParseIPv4 parses a whole dotted quad as Doris's parse_ipv4_whole: four
// groups of 1 to 4 digits, each at most 255, separated by '.'. Callers trim
// whitespace first where Doris does.
func ParseIPv4(s string) (uint32, bool) {
	x, n, ok := parseIPv4Prefix(s, -1)
	return x, ok && n == len(s)
}

// parseIPv4Prefix parses an IPv4 address at the front of s and returns it
// with the bytes used. first >= 0 is an already parsed first octet.
func parseIPv4Prefix(s string, first int) (uint32, int, bool) {
	var res uint32
	i, octet := 0, 0
	if first >= 0 {
		if first > 255 {
			return 0, 0, false
		}
		res, octet = uint32(first), 1
	}
	for ; octet < 4; octet++ {
		v, n := 0, 0
		for i < len(s) && isDigit(s[i]) && n <= 3 {
			v = v*10 + int(s[i]-'0')
			n++
			i++
		}
		if n == 0 || v > 255 {
			return 0, 0, false
		}
		res = res<<8 | uint32(v)
		if octet < 3 {
			if i >= len(s) || s[i] != '.' {
				return 0, 0, false
			}
			i++
		}
	}
	return res, i, true
}

// AppendIPv4 appends the dotted form of x.
func AppendIPv4(b []byte, x uint32) []byte {
	for i := 3; i >= 0; i-- {
		b = strconv.AppendUint(b, uint64(x>>(8*i)&0xff), 10)
		if i > 0 {
			b = append(b, '.')
		}
	}
	return b
}

// ParseIPv6 parses a whole IPv6 address as Doris's parse_ipv6_whole: up to
// eight groups of 1 to 4 hex digits, one "::" for a run of zero groups (which
// must stand for at least one group), and an IPv4 tail in the last 32 bits.
func ParseIPv6(s string) (hi, lo uint64, ok bool) {
	var dst [16]byte
	n, ok := parseIPv6Prefix(s, &dst)
	if !ok || n != len(s) {
		return 0, 0, false
	}
	for i := 0; i < 8; i++ {
		hi = hi<<8 | uint64(dst[i])
		lo = lo<<8 | uint64(dst[8+i])
	}
	return hi, lo, true
}

// parseIPv6Prefix parses an IPv6 address at the front of s into dst (big
// endian) and returns the bytes used, following parse_ipv6 of format_ip.h.
func parseIPv6Prefix(s string, dst *[16]byte) (int, bool) {
	if len(s) == 0 {
		return 0, false
	}
	i, groups, it, zptr := 0, 0, 0, -1
	groupStart := true
	for i < len(s) && groups < 8 {
		if s[i] == ':' {
			i++
			if i == len(s) {
				return 0, false // trailing colon
			}
			groupStart = true
			if s[i] == ':' {
				if zptr >= 0 {
					return 0, false // two "::"
				}
				zptr = it
				i++
				if i < len(s) && s[i] == ':' {
					return 0, false
				}
				continue
			}
			if groups == 0 {
				return 0, false // leading colon
			}
		}
		if s[i] == '.' {
			n, ok := parseIPv6IPv4Tail(s[i:], dst, &it, &groups, zptr, groupStart)
			if !ok {
				return 0, false
			}
			i += n
			break
		}
		if !groupStart {
			break
		}
		groupStart = false
		val, xd := 0, 0
		for ; i < len(s) && xd < 4; i, xd = i+1, xd+1 {
			h := unhex(s[i])
			if h < 0 {
				break
			}
			val = val<<4 | h
		}
		if xd == 0 {
			break
		}
		dst[it], dst[it+1] = byte(val>>8), byte(val)
		it += 2
		groups++
	}
	if groups < 8 && zptr < 0 {
		return 0, false
	}
	if zptr >= 0 {
		if groups == 8 {
			return 0, false // "::" must stand for at least one group
		}
		m := it - zptr
		copy(dst[16-m:], dst[zptr:it])
		for j := zptr; j < 16-m; j++ {
			dst[j] = 0
		}
	}
	return i, true
}

// parseIPv6IPv4Tail parses the ".b.c.d" of an IPv4 tail whose first octet
// was read as the last IPv6 group (its hex digits read as decimal).
func parseIPv6IPv4Tail(s string, dst *[16]byte, it, groups *int, zptr int, groupStart bool) (int, bool) {
	if (*groups <= 1 && zptr < 0) || groupStart || len(s) < 2 {
		return 0, false
	}
	*groups--
	*it -= 2
	num := 0
	for _, c := range dst[*it : *it+2] {
		hi, lo := int(c>>4), int(c&0x0f)
		if hi > 9 || lo > 9 {
			return 0, false
		}
		num = num*100 + hi*10 + lo
	}
	x, n, ok := parseIPv4Prefix(s[1:], num)
	if !ok || *it+4 > 16 {
		return 0, false
	}
	dst[*it], dst[*it+1], dst[*it+2], dst[*it+3] = byte(x>>24), byte(x>>16), byte(x>>8), byte(x)
	*it += 4
	*groups += 2
	return 1 + n, true
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// AppendIPv6 appends the text form of hi:lo as Doris's format_ipv6: lower-case
// hex groups without leading zeros, the longest run of two or more zero
// groups (the first of equal runs) as "::", and an address of the forms
// ::a.b.c.d and ::ffff:a.b.c.d with its last 32 bits in dotted form.
func AppendIPv6(b []byte, hi, lo uint64) []byte {
	return appendIPv6Words(b, ipv6Words(hi, lo), uint32(lo), 0)
}

func ipv6Words(hi, lo uint64) [8]uint16 {
	var w [8]uint16
	for i := 0; i < 4; i++ {
		w[i] = uint16(hi >> (48 - 16*i))
		w[4+i] = uint16(lo >> (48 - 16*i))
	}
	return w
}

// appendIPv6Words formats the groups w; an IPv4 tail prints v4 with its
// last masked octets as 0.
func appendIPv6Words(b []byte, w [8]uint16, v4 uint32, masked int) []byte {
	best, bestLen, cur, curLen := -1, 0, -1, 0
	for i, x := range w {
		if x != 0 {
			cur = -1
			continue
		}
		if cur < 0 {
			cur, curLen = i, 0
		}
		curLen++
		if curLen > bestLen {
			best, bestLen = cur, curLen
		}
	}
	if bestLen < 2 {
		best = -1
	}
	for i := 0; i < 8; i++ {
		if best >= 0 && i >= best && i < best+bestLen {
			if i == best {
				b = append(b, ':')
			}
			continue
		}
		if i != 0 {
			b = append(b, ':')
		}
		if i == 6 && best == 0 && (bestLen == 6 || (bestLen == 5 && w[5] == 0xffff)) {
			if masked > 0 {
				v4 &= ^uint32(0) << (8 * masked)
			}
			return AppendIPv4(b, v4)
		}
		b = strconv.AppendUint(b, uint64(w[i]), 16)
	}
	if best >= 0 && best+bestLen == 8 {
		b = append(b, ':')
	}
	return b
}

// parseIPv4Value is the cast of text to IPV4 (IPv4Value::from_string: ASCII
// whitespace around the address is ignored).
func parseIPv4Value(s string) (Value, error) {
	x, ok := ParseIPv4(trimSpace(s))
	if !ok {
		return NullValue, invalidValue("parse ipv4 fail, string: '%s'", s)
	}
	return NewIPv4(x), nil
}

// parseIPv6Value is the cast of text to IPV6 (IPv6Value::from_string).
func parseIPv6Value(s string) (Value, error) {
	hi, lo, ok := ParseIPv6(trimSpace(s))
	if !ok {
		return NullValue, invalidValue("parse ipv6 fail, string: '%s'", s)
	}
	return NewIPv6(hi, lo), nil
}

// castToIP converts a non-string value to IPV4 or IPV6: Doris casts only
// IPV4 to IPV6 (as ::ffff:a.b.c.d) besides text.
func castToIP(v Value, to Type) (Value, error) {
	switch {
	case v.Kind == to.Kind:
		return v, nil
	case v.Kind == IPv4 && to.Kind == IPv6:
		return IPv4ToIPv6(uint32(v.I)), nil
	case v.Kind == JSON:
		return castFromJSON(v, to)
	}
	return NullValue, unsupportedCast(v, to)
}

// compareIPv6 orders two IPV6 values as unsigned 128-bit numbers.
func compareIPv6(a, b Value) int {
	ah, al := IPv6Parts(a)
	bh, bl := IPv6Parts(b)
	switch {
	case ah < bh:
		return -1
	case ah > bh:
		return 1
	case al < bl:
		return -1
	case al > bl:
		return 1
	}
	return 0
}

// AppendIPv6Cut appends hi:lo as Doris's format_ipv6 with
// zeroed_tail_bytes_count n (cut_ipv6): the groups that start in the last n
// bytes print as zero, and an IPv4 tail shows its last min(n, 4) octets as 0.
func AppendIPv6Cut(b []byte, hi, lo uint64, n int) []byte {
	w := ipv6Words(hi, lo)
	for i := 0; i < 8; i++ {
		if 2*i >= 16-n {
			w[i] = 0
		}
	}
	return appendIPv6Words(b, w, uint32(lo), min(max(n, 0), 4))
}
