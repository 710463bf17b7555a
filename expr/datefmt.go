package expr

import (
	"strconv"
	"strings"

	"loadgw/types"
)

var (
	monthNames = [...]string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
	dayNames = [...]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
)

// weekday0 is 0 for Monday .. 6 for Sunday.
func weekday0(days int64) int { return int(((days+3)%7 + 7) % 7) }

func pad(b []byte, n, width int) []byte {
	s := strconv.Itoa(n)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// formatDate is MySQL/Doris DATE_FORMAT over DATETIME microseconds.
func formatDate(micros int64, f string) string {
	y, m, d, h, mi, s, us := types.CivilFromMicros(micros)
	days, _ := types.SplitMicros(micros)
	b := make([]byte, 0, len(f)+16)
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' || i+1 == len(f) {
			b = append(b, c)
			continue
		}
		i++
		h12 := h % 12
		if h12 == 0 {
			h12 = 12
		}
		switch f[i] {
		case 'a':
			b = append(b, dayNames[weekday0(days)][:3]...)
		case 'b':
			b = append(b, monthNames[m-1][:3]...)
		case 'c':
			b = strconv.AppendInt(b, int64(m), 10)
		case 'D':
			b = strconv.AppendInt(b, int64(d), 10)
			b = append(b, ordinal(d)...)
		case 'd':
			b = pad(b, d, 2)
		case 'e':
			b = strconv.AppendInt(b, int64(d), 10)
		case 'f':
			b = pad(b, us, 6)
		case 'H':
			b = pad(b, h, 2)
		case 'h', 'I':
			b = pad(b, h12, 2)
		case 'i':
			b = pad(b, mi, 2)
		case 'j':
			b = pad(b, int(days-types.DaysFromCivil(y, 1, 1))+1, 3)
		case 'k':
			b = strconv.AppendInt(b, int64(h), 10)
		case 'l':
			b = strconv.AppendInt(b, int64(h12), 10)
		case 'M':
			b = append(b, monthNames[m-1]...)
		case 'm':
			b = pad(b, m, 2)
		case 'p':
			b = append(b, pick(h < 12, "AM", "PM")...)
		case 'r':
			b = pad(b, h12, 2)
			b = append(b, ':')
			b = pad(b, mi, 2)
			b = append(b, ':')
			b = pad(b, s, 2)
			b = append(b, pick(h < 12, " AM", " PM")...)
		case 'S', 's':
			b = pad(b, s, 2)
		case 'T':
			b = pad(b, h, 2)
			b = append(b, ':')
			b = pad(b, mi, 2)
			b = append(b, ':')
			b = pad(b, s, 2)
		case 'U', 'u', 'V', 'v':
			mode := map[byte]int{'U': 0, 'u': 1, 'V': 2, 'v': 3}[f[i]]
			w, _ := weekMode(days, mode)
			b = pad(b, w, 2)
		case 'X', 'x':
			_, wy := weekMode(days, pick2(f[i] == 'X', 2, 3))
			b = pad(b, wy, 4)
		case 'W':
			b = append(b, dayNames[weekday0(days)]...)
		case 'w':
			b = strconv.AppendInt(b, int64((weekday0(days)+1)%7), 10)
		case 'Y':
			b = pad(b, y, 4)
		case 'y':
			b = pad(b, y%100, 2)
		default:
			b = append(b, f[i])
		}
	}
	return string(b)
}

func pick2(c bool, a, b int) int {
	if c {
		return a
	}
	return b
}

func ordinal(d int) string {
	if d >= 11 && d <= 13 {
		return "th"
	}
	switch d % 10 {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}

// fmtHasTime reports whether a STR_TO_DATE format produces a time part, and
// whether it reads fractional seconds.
func fmtHasTime(f string) (hasTime, hasFrac bool) {
	for i := 0; i+1 < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		switch f[i] {
		case 'H', 'h', 'I', 'i', 'k', 'l', 'r', 'S', 's', 'T', 'p':
			hasTime = true
		case 'f':
			hasTime, hasFrac = true, true
		}
	}
	return
}

type dateParts struct {
	y, m, d, h, mi, s, us, yday int
	pm, hasPM                   bool
}

// parseDate is STR_TO_DATE: it returns DATETIME microseconds, ok false when
// s does not match f or is not a valid date.
func parseDate(s, f string) (int64, bool) {
	p := dateParts{m: 1, d: 1}
	ymdSeen := false
	si := 0
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c == ' ' {
			for si < len(s) && s[si] == ' ' {
				si++
			}
			continue
		}
		if c != '%' || i+1 == len(f) {
			if si >= len(s) || s[si] != c {
				return 0, false
			}
			si++
			continue
		}
		i++
		var ok bool
		si, ok = p.read(s, si, f[i])
		if !ok {
			return 0, false
		}
		if strings.IndexByte("YymcdeMbj", f[i]) >= 0 {
			ymdSeen = true
		}
	}
	_ = ymdSeen
	if p.hasPM {
		p.h %= 12
		if p.pm {
			p.h += 12
		}
	}
	if p.yday > 0 {
		days := types.DaysFromCivil(p.y, 1, 1) + int64(p.yday-1)
		p.y, p.m, p.d = types.CivilFromDays(days)
	}
	if !types.ValidDate(p.y, p.m, p.d) || !types.ValidTime(p.h, p.mi, p.s, p.us) {
		return 0, false
	}
	return types.MicrosFromCivil(p.y, p.m, p.d, p.h, p.mi, p.s, p.us), true
}

func readNum(s string, i, maxDigits int) (int, int, bool) {
	j, n := i, 0
	for j < len(s) && j-i < maxDigits && s[j] >= '0' && s[j] <= '9' {
		n = n*10 + int(s[j]-'0')
		j++
	}
	return n, j, j > i
}

func readName(s string, i int, names []string, abbr bool) (int, int, bool) {
	for k, n := range names {
		if abbr {
			n = n[:3]
		}
		if len(s)-i >= len(n) && strings.EqualFold(s[i:i+len(n)], n) {
			return k, i + len(n), true
		}
	}
	return 0, i, false
}

func (p *dateParts) read(s string, i int, spec byte) (int, bool) {
	var ok bool
	switch spec {
	case 'Y':
		var j int
		p.y, j, ok = readNum(s, i, 4)
		if ok && j-i <= 2 {
			p.y = twoDigitYear(p.y)
		}
		return j, ok
	case 'y':
		p.y, i, ok = readNum(s, i, 2)
		p.y = twoDigitYear(p.y)
	case 'm', 'c':
		p.m, i, ok = readNum(s, i, 2)
	case 'd', 'e':
		p.d, i, ok = readNum(s, i, 2)
	case 'H', 'k', 'h', 'I', 'l':
		p.h, i, ok = readNum(s, i, 2)
	case 'i':
		p.mi, i, ok = readNum(s, i, 2)
	case 's', 'S':
		p.s, i, ok = readNum(s, i, 2)
	case 'j':
		p.yday, i, ok = readNum(s, i, 3)
	case 'f':
		start := i
		p.us, i, ok = readNum(s, i, 6)
		for k := i - start; k < 6; k++ {
			p.us *= 10
		}
	case 'p':
		if len(s)-i >= 2 {
			u := strings.ToUpper(s[i : i+2])
			p.hasPM, p.pm, ok = true, u == "PM", u == "AM" || u == "PM"
			i += 2
		}
	case 'M':
		p.m, i, ok = readName(s, i, monthNames[:], false)
		p.m++
	case 'b':
		p.m, i, ok = readName(s, i, monthNames[:], true)
		p.m++
	case 'W':
		_, i, ok = readName(s, i, dayNames[:], false)
	case 'a':
		_, i, ok = readName(s, i, dayNames[:], true)
	case 'T':
		return p.readSeq(s, i, "%H:%i:%s")
	case 'r':
		return p.readSeq(s, i, "%h:%i:%s %p")
	case '%':
		ok = i < len(s) && s[i] == '%'
		i++
	default:
		ok = i < len(s) && s[i] == spec
		i++
	}
	return i, ok
}

func (p *dateParts) readSeq(s string, i int, f string) (int, bool) {
	for k := 0; k < len(f); k++ {
		if f[k] == '%' {
			k++
			var ok bool
			if i, ok = p.read(s, i, f[k]); !ok {
				return i, false
			}
			continue
		}
		if f[k] == ' ' {
			for i < len(s) && s[i] == ' ' {
				i++
			}
			continue
		}
		if i >= len(s) || s[i] != f[k] {
			return i, false
		}
		i++
	}
	return i, true
}

func twoDigitYear(y int) int {
	if y < 70 {
		return 2000 + y
	}
	if y < 100 {
		return 1900 + y
	}
	return y
}
