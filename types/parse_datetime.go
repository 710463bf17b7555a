package types

import (
	"strings"
	"sync"
	"time"
)

// Parsing of DATE, DATETIME and TIMESTAMPTZ text, after Doris's
// CastToDatetimeV2::from_string_strict_mode and
// from_string_non_strict_mode_impl. The non-strict cast tries the strict
// grammar first and falls back to the loose one.
//
// Strict grammar (the separators of the date are '-' or '/'):
//
//	YYYYMMDDHHMMSS[.frac] | date [(' '|'T'|':') time] [ws zone]
//	date ::= YYYY-M-D | YY-M-D | YYYYMMDD | YYMMDD
//	time ::= H[:M[:S[.frac]]] | HH[MM[SS[.frac]]]
//	zone ::= (+|-)H[H][[:]MM] | name ("UTC", "Z", "CST", "Asia/Shanghai"...)
//
// Loose grammar: YYYY<p>M<p>D[(' '|'T'|':')H<p>M<p>S[.frac]] [ws zone], where
// <p> is any one character that is neither a letter nor a digit.
//
// Two-digit years map 70..99 to 19xx and 00..69 to 20xx. Fractional seconds
// beyond the target scale are rounded half up on the first dropped digit
// (DATE ignores them). Text with a zone is converted: DATETIME into loc,
// TIMESTAMPTZ into UTC; zone-less TIMESTAMPTZ text is read in loc.

// civil is a parsed date-time before zone conversion.
type civil struct {
	y, m, d, h, mi, s int
	us                int
	hasZone           bool
	fixed             bool // zone is a fixed offset of off seconds
	off               int
	zone              *time.Location
}

// cursor walks the text.
type cursor struct {
	s string
	i int
}

func (c *cursor) eof() bool { return c.i >= len(c.s) }

func (c *cursor) peek() byte {
	if c.i < len(c.s) {
		return c.s[c.i]
	}
	return 0
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isAlnum(b byte) bool {
	return isDigit(b) || (b|0x20) >= 'a' && (b|0x20) <= 'z'
}

// digits consumes exactly n digits.
func (c *cursor) digits(n int) (int, bool) {
	if c.i+n > len(c.s) {
		return 0, false
	}
	v := 0
	for k := 0; k < n; k++ {
		b := c.s[c.i+k]
		if !isDigit(b) {
			return 0, false
		}
		v = v*10 + int(b-'0')
	}
	c.i += n
	return v, true
}

// digits12 consumes one or two digits.
func (c *cursor) digits12() (int, bool) {
	v, ok := c.digits(1)
	if !ok {
		return 0, false
	}
	if isDigit(c.peek()) {
		v = v*10 + int(c.s[c.i]-'0')
		c.i++
	}
	return v, true
}

func (c *cursor) countDigits() int {
	n := 0
	for c.i+n < len(c.s) && isDigit(c.s[c.i+n]) {
		n++
	}
	return n
}

func (c *cursor) skipSpace() {
	for c.i < len(c.s) && isSpace(c.s[c.i]) {
		c.i++
	}
}

func fullYear(y int) int {
	if y < 70 {
		return y + 2000
	}
	return y + 1900
}

// parseTemporal parses DATE, DATETIME or TIMESTAMPTZ text.
func parseTemporal(s string, t Type, loc *time.Location, strict bool) (Value, error) {
	scale := int(t.Scale)
	if t.Kind == Date {
		scale = -1
	}
	text := trimSpace(s)
	cv, ok := parseStrictDateTime(text, scale)
	if !ok && !strict {
		cv, ok = parseLooseDateTime(text, scale)
	}
	if !ok || !ValidDate(cv.y, cv.m, cv.d) {
		return NullValue, parseDateFail(s, t)
	}
	micros := MicrosFromCivil(cv.y, cv.m, cv.d, cv.h, cv.mi, cv.s, 0) + int64(cv.us)
	if !DateTimeInRange(micros) { // rounding carried past 9999-12-31 23:59:59
		return NullValue, outOfRange("datetime overflow when rounding up to next second: '%s'", s)
	}
	var err error
	if micros, err = convertZone(micros, &cv, t.Kind, loc, s); err != nil {
		return NullValue, err
	}
	if !DateTimeInRange(micros) {
		return NullValue, outOfRange("datetime value out of range [0000-01-01, 9999-12-31]: '%s'", s)
	}
	switch t.Kind {
	case Date:
		days, _ := SplitMicros(micros)
		return NewDate(days), nil
	case DateTime:
		return NewDateTime(micros, scale), nil
	}
	return NewTimestampTZ(micros, scale), nil
}

func parseDateFail(s string, t Type) error {
	name := "datetime"
	switch t.Kind {
	case Date:
		name = "date"
	case TimestampTZ:
		name = "timestamptz"
	}
	return invalidValue("parse %s fail, string: '%s'", name, s)
}

// convertZone applies the zone rules: the result is local civil micros for
// DATE/DATETIME and UTC micros for TIMESTAMPTZ.
func convertZone(micros int64, cv *civil, k Kind, loc *time.Location, s string) (int64, error) {
	if !cv.hasZone {
		if k == TimestampTZ {
			return LocalToUTC(micros, loc), nil
		}
		return micros, nil
	}
	var utc int64
	if cv.fixed {
		utc = micros - int64(cv.off)*MicrosPerSecond
	} else {
		utc = LocalToUTC(micros, cv.zone)
	}
	if k == TimestampTZ {
		return utc, nil
	}
	return UTCToLocal(utc, loc), nil
}

// LocalToUTC converts civil microseconds read in loc (nil: UTC) to the UTC
// instant, as Doris (cctz) does: a civil time a daylight-saving change
// repeats is its earlier instant; one it skips is the instant of the
// change, so later civil times never map to earlier instants.
func LocalToUTC(micros int64, loc *time.Location) int64 {
	if loc == nil || loc == time.UTC {
		return micros
	}
	days, tod := SplitMicros(micros)
	y, m, d := CivilFromDays(days)
	sec := tod / MicrosPerSecond
	civil := days*86400 + sec // civil seconds since the epoch
	t := time.Date(y, time.Month(m), d, int(sec/3600), int(sec/60%60), int(sec%60), 0, loc)
	civilOf := func(t time.Time) int64 { _, off := t.Zone(); return t.Unix() + int64(off) }
	frac := tod % MicrosPerSecond
	if got := civilOf(t); got != civil {
		// Skipped: t is on one side of the change; the change is the
		// boundary of t's zone period on the side of the civil time.
		start, end := t.ZoneBounds()
		if got > civil && !start.IsZero() {
			return start.Unix() * MicrosPerSecond
		}
		if got < civil && !end.IsZero() {
			return end.Unix() * MicrosPerSecond
		}
		return t.Unix()*MicrosPerSecond + frac
	}
	if start, _ := t.ZoneBounds(); !start.IsZero() {
		// Repeated: the same civil time in the period before t's, if it
		// falls there, is the earlier instant.
		_, prevOff := start.Add(-time.Second).Zone()
		if e := time.Unix(civil-int64(prevOff), 0); e.Before(start) && civilOf(e.In(loc)) == civil {
			return e.Unix()*MicrosPerSecond + frac
		}
	}
	return t.Unix()*MicrosPerSecond + frac
}

// UTCToLocal converts a UTC instant to civil microseconds in loc (nil: UTC).
func UTCToLocal(micros int64, loc *time.Location) int64 {
	return micros + int64(ZoneOffset(micros, loc))*MicrosPerSecond
}

// ZoneOffset returns the UTC offset in seconds of loc at the UTC instant.
func ZoneOffset(micros int64, loc *time.Location) int {
	if loc == nil || loc == time.UTC {
		return 0
	}
	_, off := time.Unix(floorDiv(micros, MicrosPerSecond), 0).In(loc).Zone()
	return off
}

// parseStrictDateTime implements the strict grammar.
func parseStrictDateTime(s string, scale int) (civil, bool) {
	var cv civil
	c := cursor{s: s}
	hasSecond := false
	if c.countDigits() >= 14 {
		cv.y, _ = c.digits(4)
		cv.m, _ = c.digits(2)
		cv.d, _ = c.digits(2)
		cv.h, _ = c.digits(2)
		cv.mi, _ = c.digits(2)
		cv.s, _ = c.digits(2)
		if !ValidTime(cv.h, cv.mi, cv.s, 0) {
			return cv, false
		}
		return cv, strictTail(&c, &cv, true, scale)
	}
	if !strictDate(&c, &cv) {
		return cv, false
	}
	if c.eof() {
		return cv, true
	}
	if b := c.peek(); b != ' ' && b != 'T' && b != ':' {
		return cv, false
	}
	c.i++
	var ok bool
	if cv.h, ok = c.digits12(); !ok || cv.h > 23 {
		return cv, false
	}
	if c.eof() {
		return cv, true
	}
	if c.peek() == ':' {
		c.i++
		if cv.mi, ok = c.digits12(); !ok || cv.mi > 59 {
			return cv, false
		}
		if c.peek() == ':' {
			c.i++
			if cv.s, ok = c.digits12(); !ok || cv.s > 59 {
				return cv, false
			}
			hasSecond = true
		}
	} else if c.countDigits() >= 2 {
		cv.mi, _ = c.digits(2)
		if cv.mi > 59 {
			return cv, false
		}
		if c.countDigits() >= 2 {
			cv.s, _ = c.digits(2)
			if cv.s > 59 {
				return cv, false
			}
			hasSecond = true
		}
	}
	return cv, strictTail(&c, &cv, hasSecond, scale)
}

// strictDate parses the date part of the strict grammar.
func strictDate(c *cursor, cv *civil) bool {
	if len(c.s) < 6 {
		return false
	}
	if c.countDigits() >= 5 {
		a, ok1 := c.digits(2)
		b, ok2 := c.digits(2)
		d, ok3 := c.digits(2)
		if !ok1 || !ok2 || !ok3 {
			return false
		}
		if isDigit(c.peek()) {
			e, ok := c.digits(2)
			if !ok {
				return false
			}
			cv.y, cv.m, cv.d = a*100+b, d, e
			return true
		}
		cv.y, cv.m, cv.d = fullYear(a), b, d
		return true
	}
	a, ok := c.digits(2)
	if !ok {
		return false
	}
	if isDateSep(c.peek()) {
		cv.y = fullYear(a)
	} else {
		b, ok := c.digits(2)
		if !ok || !isDateSep(c.peek()) {
			return false
		}
		cv.y = a*100 + b
	}
	c.i++
	if cv.m, ok = c.digits12(); !ok || !isDateSep(c.peek()) {
		return false
	}
	c.i++
	cv.d, ok = c.digits12()
	return ok
}

func isDateSep(b byte) bool { return b == '-' || b == '/' }

// strictTail parses the fraction, whitespace, zone and end of the text.
func strictTail(c *cursor, cv *civil, hasSecond bool, scale int) bool {
	if hasSecond && c.peek() == '.' {
		c.i++
		readFraction(c, cv, scale)
	}
	for isDigit(c.peek()) {
		c.i++
	}
	c.skipSpace()
	if c.eof() {
		return true
	}
	return parseZone(c, cv)
}

// readFraction reads the digits after the point, rounding to scale (scale
// -1: ignore). A carry into the next second is kept as us = 1e6.
func readFraction(c *cursor, cv *civil, scale int) {
	start := c.i
	for isDigit(c.peek()) {
		c.i++
	}
	if scale < 0 {
		return
	}
	frac := c.s[start:c.i]
	v := 0
	n := min(len(frac), scale)
	for k := 0; k < n; k++ {
		v = v*10 + int(frac[k]-'0')
	}
	if len(frac) > scale && frac[scale] >= '5' {
		v++
	}
	cv.us = v * int(pow10i64[6-n])
}

// parseZone parses an offset or zone name followed by optional whitespace.
func parseZone(c *cursor, cv *civil) bool {
	if b := c.peek(); b == '+' || b == '-' {
		c.i++
		var h, m int
		var ok bool
		if n := c.countDigits(); n == 1 || n == 3 {
			h, ok = c.digits(1)
		} else {
			h, ok = c.digits(2)
		}
		if !ok || h > 14 {
			return false
		}
		if !c.eof() && !isSpace(c.peek()) {
			if c.peek() == ':' {
				c.i++
			}
			if m, ok = c.digits(2); !ok || (m != 0 && m != 30 && m != 45) {
				return false
			}
		}
		if h == 14 && m != 0 {
			return false
		}
		cv.hasZone, cv.fixed, cv.off = true, true, h*3600+m*60
		if b == '-' {
			cv.off = -cv.off
		}
	} else {
		start := c.i
		for !c.eof() && !isSpace(c.peek()) {
			c.i++
		}
		loc, fixed, off, ok := LookupZone(c.s[start:c.i])
		if !ok {
			return false
		}
		cv.hasZone, cv.zone, cv.fixed, cv.off = true, loc, fixed, off
	}
	c.skipSpace()
	return c.eof()
}

// parseLooseDateTime implements the non-strict grammar.
func parseLooseDateTime(s string, scale int) (civil, bool) {
	var cv civil
	c := cursor{s: s}
	y, ok := c.digits(2)
	if !ok {
		return cv, false
	}
	if isDigit(c.peek()) {
		y2, ok := c.digits(2)
		if !ok {
			return cv, false
		}
		cv.y = y*100 + y2
	} else {
		cv.y = fullYear(y)
	}
	if !c.skipPunct() {
		return cv, false
	}
	if cv.m, ok = c.digits12(); !ok || !c.skipPunct() {
		return cv, false
	}
	if cv.d, ok = c.digits12(); !ok {
		return cv, false
	}
	if trimSpace(c.s[c.i:]) == "" {
		return cv, true
	}
	if b := c.peek(); b != ' ' && b != 'T' && b != ':' {
		return cv, false
	}
	c.i++
	if cv.h, ok = c.digits12(); !ok || cv.h > 23 || !c.skipPunct() {
		return cv, false
	}
	if cv.mi, ok = c.digits12(); !ok || cv.mi > 59 || !c.skipPunct() {
		return cv, false
	}
	if cv.s, ok = c.digits12(); !ok || cv.s > 59 {
		return cv, false
	}
	if c.peek() == '.' {
		c.i++
		readFraction(&c, &cv, scale)
	}
	c.skipSpace()
	if c.eof() {
		return cv, true
	}
	return cv, parseZone(&c, &cv)
}

// skipPunct consumes one character that is neither a letter nor a digit.
func (c *cursor) skipPunct() bool {
	if c.eof() || isAlnum(c.peek()) {
		return false
	}
	c.i++
	return true
}

var zoneCache sync.Map // lower-case name -> *time.Location

// LookupZone resolves a zone name as Doris's TimezoneUtils does: "UTC",
// "GMT", "Z" and "ZULU" are UTC, "CST" is Asia/Shanghai (China Standard
// Time, as in Doris), an offset "+08:00" is fixed, anything else is an IANA
// name. Names are case-insensitive for the short forms.
func LookupZone(name string) (loc *time.Location, fixed bool, off int, ok bool) {
	switch strings.ToLower(name) {
	case "utc", "gmt", "z", "zulu", "etc/utc", "etc/gmt":
		return time.UTC, true, 0, true
	case "cst":
		name = "Asia/Shanghai"
	case "":
		return nil, false, 0, false
	}
	if name[0] == '+' || name[0] == '-' {
		var cv civil
		c := cursor{s: name}
		if !parseZone(&c, &cv) {
			return nil, false, 0, false
		}
		return nil, true, cv.off, true
	}
	if l, hit := zoneCache.Load(name); hit {
		return l.(*time.Location), false, 0, true
	}
	l, err := time.LoadLocation(name)
	if err != nil || name == "Local" {
		return nil, false, 0, false
	}
	zoneCache.Store(name, l)
	return l, false, 0, true
}

// ParsePlainDateTime reads DATETIME text of exactly the form
// "YYYY-MM-DD HH:MM:SS" (a valid date and time of day, nothing around it)
// as microseconds. It returns what ParseValue and ParseValueStrict give
// such text for a DATETIME column of any scale (no zone applies to
// DATETIME text without an offset), and false for any other text, which
// the caller then parses with them. It is the stream load's shortcut for
// the commonest DATETIME field.
func ParsePlainDateTime(s string) (int64, bool) {
	if len(s) != 19 || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' || s[16] != ':' {
		return 0, false
	}
	c := cursor{s: s}
	y, ok1 := c.digits(4)
	c.i = 5
	m, ok2 := c.digits(2)
	c.i = 8
	d, ok3 := c.digits(2)
	c.i = 11
	h, ok4 := c.digits(2)
	c.i = 14
	mi, ok5 := c.digits(2)
	c.i = 17
	sec, ok6 := c.digits(2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || !ValidDate(y, m, d) || !ValidTime(h, mi, sec, 0) {
		return 0, false
	}
	return MicrosFromCivil(y, m, d, h, mi, sec, 0), true
}
