package types

// Civil-date arithmetic on the proleptic Gregorian calendar, in pure integer
// arithmetic (no time.Time), for the Doris range 0000-01-01 .. 9999-12-31.
// DATE values are days since 1970-01-01; DATETIME values are microseconds
// since 1970-01-01 00:00:00.

// Time unit sizes in microseconds.
const (
	MicrosPerSecond = 1_000_000
	MicrosPerMinute = 60 * MicrosPerSecond
	MicrosPerHour   = 60 * MicrosPerMinute
	MicrosPerDay    = 24 * MicrosPerHour
)

// The DATE and DATETIME range of Doris.
var (
	MinDateDays       = DaysFromCivil(0, 1, 1)      // 0000-01-01
	MaxDateDays       = DaysFromCivil(9999, 12, 31) // 9999-12-31
	MinDateTimeMicros = MinDateDays * MicrosPerDay
	MaxDateTimeMicros = MaxDateDays*MicrosPerDay + MicrosPerDay - 1 // 9999-12-31 23:59:59.999999
)

// IsLeapYear reports whether y is a Gregorian leap year.
func IsLeapYear(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

var monthDays = [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// DaysInMonth returns the number of days of month m (1..12) of year y.
func DaysInMonth(y, m int) int {
	if m == 2 && IsLeapYear(y) {
		return 29
	}
	return monthDays[m]
}

// ValidDate reports whether y-m-d is a date Doris accepts (year 0..9999).
func ValidDate(y, m, d int) bool {
	return y >= 0 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= DaysInMonth(y, m)
}

// ValidTime reports whether h:mi:s.us is a valid time of day.
func ValidTime(h, mi, s, us int) bool {
	return h >= 0 && h <= 23 && mi >= 0 && mi <= 59 && s >= 0 && s <= 59 && us >= 0 && us < MicrosPerSecond
}

// DaysFromCivil returns the days since 1970-01-01 of y-m-d.
// REQUIRES: 1 <= m <= 12, 1 <= d <= 31.
func DaysFromCivil(y, m, d int) int64 {
	// Howard Hinnant's days_from_civil, with the era shifted so that the
	// arithmetic stays non-negative for years >= 0.
	yy := int64(y)
	if m <= 2 {
		yy--
	}
	era := floorDiv(yy, 400)
	yoe := yy - era*400
	mp := int64((m + 9) % 12)
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// CivilFromDays is the inverse of DaysFromCivil.
func CivilFromDays(days int64) (y, m, d int) {
	z := days + 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	m = int(mp + 3)
	if m > 12 {
		m -= 12
	}
	yy := yoe + era*400
	if m <= 2 {
		yy++
	}
	return int(yy), m, d
}

// MicrosFromCivil returns the microseconds since 1970-01-01 00:00:00 of the
// civil date-time.
func MicrosFromCivil(y, m, d, h, mi, s, us int) int64 {
	return DaysFromCivil(y, m, d)*MicrosPerDay +
		int64(h)*MicrosPerHour + int64(mi)*MicrosPerMinute + int64(s)*MicrosPerSecond + int64(us)
}

// CivilFromMicros is the inverse of MicrosFromCivil.
func CivilFromMicros(micros int64) (y, m, d, h, mi, s, us int) {
	days := floorDiv(micros, MicrosPerDay)
	rem := micros - days*MicrosPerDay
	y, m, d = CivilFromDays(days)
	h = int(rem / MicrosPerHour)
	rem %= MicrosPerHour
	mi = int(rem / MicrosPerMinute)
	rem %= MicrosPerMinute
	s = int(rem / MicrosPerSecond)
	us = int(rem % MicrosPerSecond)
	return
}

// SplitMicros splits DATETIME microseconds into days and the microsecond of
// the day (always 0 <= tod < MicrosPerDay).
func SplitMicros(micros int64) (days, tod int64) {
	days = floorDiv(micros, MicrosPerDay)
	return days, micros - days*MicrosPerDay
}

// DateInRange reports whether days is within 0000-01-01 .. 9999-12-31.
func DateInRange(days int64) bool { return days >= MinDateDays && days <= MaxDateDays }

// DateTimeInRange reports whether micros is within the DATETIME range.
func DateTimeInRange(micros int64) bool {
	return micros >= MinDateTimeMicros && micros <= MaxDateTimeMicros
}

// AddMonthsToDays adds n months to a DATE, clamping the day to the end of the
// target month as Doris's months_add does (2024-01-31 + 1 month = 2024-02-29).
// ok is false when the result leaves the DATE range.
func AddMonthsToDays(days, n int64) (int64, bool) {
	y, m, d := CivilFromDays(days)
	total := int64(y)*12 + int64(m-1) + n
	if total < 0 || total > 9999*12+11 {
		return 0, false
	}
	ny, nm := int(total/12), int(total%12)+1
	if dm := DaysInMonth(ny, nm); d > dm {
		d = dm
	}
	return DaysFromCivil(ny, nm, d), true
}

// AddMonthsToMicros is AddMonthsToDays for DATETIME microseconds; the time of
// day is kept.
func AddMonthsToMicros(micros, n int64) (int64, bool) {
	days, tod := SplitMicros(micros)
	nd, ok := AddMonthsToDays(days, n)
	if !ok {
		return 0, false
	}
	return nd*MicrosPerDay + tod, true
}

// AddDays adds n days to a DATE; ok is false when the result leaves the range.
func AddDays(days, n int64) (int64, bool) {
	if n > MaxDateDays-MinDateDays || n < MinDateDays-MaxDateDays {
		return 0, false
	}
	r := days + n
	return r, DateInRange(r)
}

// AddMicros adds n microseconds to a DATETIME; ok is false on leaving the range.
func AddMicros(micros, n int64) (int64, bool) {
	const span = 10_000 * 366 * MicrosPerDay
	if n > span || n < -span {
		return 0, false
	}
	r := micros + n
	return r, DateTimeInRange(r)
}

// RoundMicros rounds DATETIME microseconds to scale fractional digits, half
// up as Doris does when reducing DATETIME(p) precision.
func RoundMicros(micros int64, scale int) int64 {
	if scale >= 6 {
		return micros
	}
	unit := pow10i64[6-scale]
	days, tod := SplitMicros(micros)
	frac := tod % unit
	tod -= frac
	if frac >= unit/2 {
		tod += unit
	}
	return days*MicrosPerDay + tod
}

// TruncMicros drops the fractional digits of micros beyond scale.
func TruncMicros(micros int64, scale int) int64 {
	if scale >= 6 {
		return micros
	}
	unit := pow10i64[6-scale]
	return micros - mod(micros, unit)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func mod(a, b int64) int64 { return a - floorDiv(a, b)*b }

var pow10i64 = [...]int64{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
	100000000, 1000000000, 10000000000, 100000000000, 1000000000000,
	10000000000000, 100000000000000, 1000000000000000, 10000000000000000,
	100000000000000000, 1000000000000000000}
