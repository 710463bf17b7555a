package expr

import (
	"strings"
	"time"

	"loadgw/types"
)

var intervalMonths = map[string]int64{"YEAR": 12, "QUARTER": 3, "MONTH": 1}

var intervalMicros = map[string]int64{
	"WEEK": 7 * types.MicrosPerDay, "DAY": types.MicrosPerDay, "HOUR": types.MicrosPerHour,
	"MINUTE": types.MicrosPerMinute, "SECOND": types.MicrosPerSecond, "MILLISECOND": 1000, "MICROSECOND": 1,
}

// wallMicros is the DATETIME microseconds of v (DATE at midnight, TIMESTAMPTZ
// as wall time in the context zone).
func wallMicros(v types.Value, ctx *Context) int64 {
	switch v.Kind {
	case types.Date:
		return v.I * types.MicrosPerDay
	case types.TimestampTZ:
		return timeMicros(time.UnixMicro(v.I).In(ctx.loc()))
	}
	return v.I
}

// timeMicros is the wall-clock DATETIME microseconds of t in its zone.
func timeMicros(t time.Time) int64 {
	y, m, d := t.Date()
	h, mi, s := t.Clock()
	return types.MicrosFromCivil(y, int(m), d, h, mi, s, t.Nanosecond()/1000)
}

// wallTime is the instant of DATETIME microseconds read as wall time in loc.
func wallTime(micros int64, loc *time.Location) time.Time {
	y, m, d, h, mi, s, us := types.CivilFromMicros(micros)
	return time.Date(y, time.Month(m), d, h, mi, s, us*1000, loc)
}

func unitName(unit string) string { return strings.ToLower(unit) + "s" }

// bindDateArith binds date +/- INTERVAL n unit (and the *_add/_sub family).
func bindDateArith(x, n Compiled, unit string, sub bool) (Compiled, error) {
	name := unitName(unit) + pick(sub, "_sub", "_add")
	x = convertArg(x, aDT)
	xt := x.Type()
	if xt.Kind == types.Null {
		xt = tDateTime(0)
	}
	if !isDateLike(xt.Kind) {
		return nil, errorf("Can not find the compatibility function signature: %s(%s, INT)", name, typeName(xt))
	}
	months, isMonth := intervalMonths[unit]
	step, ok := intervalMicros[unit]
	if !isMonth && !ok {
		return nil, errorf("Unsupported time unit: %s", unit)
	}
	rt := resultDateType(xt, unit)
	n = convertArg(n, aInt)
	return &binaryNode{l: x, r: n, t: rt, fn: func(a, b types.Value, ctx *Context) (types.Value, error) {
		k := b.I
		if sub {
			k = -k
		}
		var r int64
		var ok bool
		switch {
		case rt.Kind == types.Date && isMonth:
			r, ok = types.AddMonthsToDays(a.I, k*months)
		case rt.Kind == types.Date:
			r, ok = types.AddDays(a.I, k*(step/types.MicrosPerDay))
		case isMonth:
			r, ok = types.AddMonthsToMicros(wallMicros(a, ctx), k*months)
		default:
			ok = k <= 1<<62/step && k >= -(1<<62)/step
			if ok {
				r, ok = types.AddMicros(wallMicros(a, ctx), k*step)
			}
		}
		if !ok {
			// Doris 3.x/4.x text for datetime arithmetic overflow.
			return types.NullValue, errorf("Operation %s of %s, %d out of range", name, safeFormat(a), b.I)
		}
		return types.Value{Kind: rt.Kind, Scale: rt.Scale, I: r}, nil
	}}, nil
}

func resultDateType(xt types.Type, unit string) types.Type {
	scale := xt.Scale
	switch unit {
	case "MILLISECOND":
		scale = max(scale, 3)
	case "MICROSECOND":
		scale = 6
	}
	if xt.Kind == types.Date {
		switch unit {
		case "YEAR", "QUARTER", "MONTH", "WEEK", "DAY":
			return tDate
		}
	}
	return tDateTime(scale)
}

func (b *binder) bindIntervalArith(x Expr, iv *Interval, sub bool) (Compiled, error) {
	xc, err := b.bind(x)
	if err != nil {
		return nil, err
	}
	n, err := b.bind(iv.X)
	if err != nil {
		return nil, err
	}
	return bindDateArith(xc, n, iv.Unit, sub)
}

// rawDateAdd is date_add(d, INTERVAL n unit) / date_add(d, n) (days).
func rawDateAdd(sub bool) func(b *binder, name string, args []Expr) (Compiled, error) {
	return func(b *binder, name string, args []Expr) (Compiled, error) {
		if iv, ok := args[1].(*Interval); ok {
			return b.bindIntervalArith(args[0], iv, sub)
		}
		return b.bindIntervalArith(args[0], &Interval{X: args[1], Unit: "DAY"}, sub)
	}
}

func rawUnitAdd(unit string, sub bool) func(b *binder, name string, args []Expr) (Compiled, error) {
	return func(b *binder, name string, args []Expr) (Compiled, error) {
		return b.bindIntervalArith(args[0], &Interval{X: args[1], Unit: unit}, sub)
	}
}

// parseTZ reads a Doris time zone: "+08:00", "UTC", "Asia/Shanghai", "CST".
func parseTZ(s string) (*time.Location, bool) {
	if len(s) == 6 && (s[0] == '+' || s[0] == '-') && s[3] == ':' {
		h, m := atoi2(s[1:3]), atoi2(s[4:6])
		if h < 0 || m < 0 || h > 14 || m > 59 {
			return nil, false
		}
		off := h*3600 + m*60
		if s[0] == '-' {
			off = -off
		}
		return time.FixedZone(s, off), true
	}
	switch strings.ToUpper(s) {
	case "CST":
		s = "Asia/Shanghai"
	case "UTC", "GMT", "Z":
		return time.UTC, true
	}
	loc, err := time.LoadLocation(s)
	return loc, err == nil
}

func atoi2(s string) int {
	if len(s) != 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return -1
	}
	return int(s[0]-'0')*10 + int(s[1]-'0')
}

// calcWeek is MySQL's calc_week for DATE days.
func calcWeek(days int64, mondayFirst, weekYear, firstWeekday bool) (week, year int) {
	y, m, d := types.CivilFromDays(days)
	daynr := days + 719528
	first := types.DaysFromCivil(y, 1, 1) + 719528
	weekday := calcWeekday(first, !mondayFirst)
	year = y
	if m == 1 && d <= 7-weekday {
		if !weekYear && (firstWeekday && weekday != 0 || !firstWeekday && weekday >= 4) {
			return 0, year
		}
		weekYear = true
		year--
		n := daysInYear(year)
		first -= int64(n)
		weekday = (weekday + 53*7 - n) % 7
	}
	var dd int64
	if firstWeekday && weekday != 0 || !firstWeekday && weekday >= 4 {
		dd = daynr - (first + int64(7-weekday))
	} else {
		dd = daynr - (first - int64(weekday))
	}
	if weekYear && dd >= 52*7 {
		weekday = (weekday + daysInYear(year)) % 7
		if !firstWeekday && weekday < 4 || firstWeekday && weekday == 0 {
			return 1, year + 1
		}
	}
	return int(dd/7) + 1, year
}

func calcWeekday(daynr int64, sundayFirst bool) int {
	k := int64(5)
	if sundayFirst {
		k = 6
	}
	return int((daynr + k) % 7)
}

func daysInYear(y int) int {
	if types.IsLeapYear(y) {
		return 366
	}
	return 365
}

// weekMode runs calc_week with MySQL's week(d, mode) flags.
func weekMode(days int64, mode int) (int, int) {
	f := mode & 7
	if f&1 == 0 {
		f ^= 4
	}
	return calcWeek(days, f&1 != 0, f&2 != 0, f&4 != 0)
}
