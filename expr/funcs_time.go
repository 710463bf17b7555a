package expr

import (
	"time"

	"loadgw/types"
)

func init() {
	for _, n := range []string{"now", "current_timestamp", "localtimestamp", "localtime", "sysdate"} {
		register(&funcDef{min: 0, max: 1, bind: bindNow}, n)
	}
	register(spec{max: 0, ret: fixedType(tDate), volatile: true, fn: func(ctx *Context, _ []types.Value) (types.Value, error) {
		return types.NewDate(timeMicros(ctx.now().In(ctx.loc())) / types.MicrosPerDay), nil
	}}.def(), "curdate", "current_date")
	// Doris returns TIME; loadgw has no TIME type, so the text is returned.
	register(spec{max: 0, ret: fixedType(tVarchar), volatile: true, fn: func(ctx *Context, _ []types.Value) (types.Value, error) {
		return types.NewString(types.Varchar, ctx.now().In(ctx.loc()).Format("15:04:05")), nil
	}}.def(), "curtime", "current_time")
	register(spec{max: 0, ret: fixedType(tDateTime(0)), volatile: true, fn: func(ctx *Context, _ []types.Value) (types.Value, error) {
		return types.NewDateTime(types.TruncMicros(timeMicros(ctx.now().UTC()), 0), 0), nil
	}}.def(), "utc_timestamp")
	register(&funcDef{min: 2, max: 2, raw: rawDateAdd(false)}, "date_add", "adddate")
	register(&funcDef{min: 2, max: 2, raw: rawDateAdd(true)}, "date_sub", "subdate")
	for _, u := range []string{"YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND"} {
		register(&funcDef{min: 2, max: 2, raw: rawUnitAdd(u, false)}, unitName(u)+"_add")
		register(&funcDef{min: 2, max: 2, raw: rawUnitAdd(u, true)}, unitName(u)+"_sub")
	}
	registerExtract()
	registerDiffs()
	registerUnix()
	register(&funcDef{min: 2, max: 2, bind: bindStrToDate}, "str_to_date")
	register(spec{min: 2, max: 2, args: []argKind{aDT, aStr}, ret: fixedType(tVarchar), fn: func(ctx *Context, a []types.Value) (types.Value, error) {
		return types.NewString(types.Varchar, formatDate(wallMicros(a[0], ctx), a[1].S)), nil
	}}.def(), "date_format")
	register(spec{min: 1, max: 1, args: []argKind{aDT}, ret: fixedType(tDate), fn: func(ctx *Context, a []types.Value) (types.Value, error) {
		days, _ := types.SplitMicros(wallMicros(a[0], ctx))
		return types.NewDate(days), nil
	}}.def(), "to_date", "date", "to_datev2", "datev2") // datev2 and to_datev2: Doris's V2 names of date and to_date (BuiltinScalarFunctions)
	register(spec{min: 3, max: 3, args: []argKind{aDT, aStr, aStr}, ret: func(a []Compiled) types.Type {
		return tDateTime(a[0].Type().Scale)
	}, fn: convertTZ}.def(), "convert_tz")
	register(spec{min: 1, max: 1, args: []argKind{aDT}, ret: fixedType(tDate), fn: func(ctx *Context, a []types.Value) (types.Value, error) {
		days, _ := types.SplitMicros(wallMicros(a[0], ctx))
		y, m, _ := types.CivilFromDays(days)
		return types.NewDate(types.DaysFromCivil(y, m, types.DaysInMonth(y, m))), nil
	}}.def(), "last_day")
}

func bindNow(name string, args []Compiled) (Compiled, error) {
	p := int64(0)
	if len(args) == 1 {
		k, ok := args[0].(*constNode)
		if !ok || !isSmallInt(k.t.Kind) {
			return nil, errorf("%s only accepts an integer literal scale", name)
		}
		if p = k.v.I; p < 0 || p > 6 {
			// Unconfirmed text.
			return nil, errorf("scale of Datetime must between 0 and 6. Scale was set to: %d", p)
		}
	}
	scale := int(p)
	return &funcNode{name: name, t: tDateTime(int8(scale)), volatile: true, fn: func(ctx *Context, _ []types.Value) (types.Value, error) {
		return types.NewDateTime(types.TruncMicros(timeMicros(ctx.now().In(ctx.loc())), scale), scale), nil
	}}, nil
}

func extract(f func(y, m, d, h, mi, s, us int, days int64) int64) spec {
	return spec{min: 1, max: 1, args: []argKind{aDT}, ret: fixedType(tInt), fn: func(ctx *Context, a []types.Value) (types.Value, error) {
		micros := wallMicros(a[0], ctx)
		y, m, d, h, mi, s, us := types.CivilFromMicros(micros)
		days, _ := types.SplitMicros(micros)
		return types.NewInt(types.Int, f(y, m, d, h, mi, s, us, days)), nil
	}}
}

func registerExtract() {
	register(extract(func(y, _, _, _, _, _, _ int, _ int64) int64 { return int64(y) }).def(), "year")
	register(extract(func(_, m, _, _, _, _, _ int, _ int64) int64 { return int64((m + 2) / 3) }).def(), "quarter")
	register(extract(func(_, m, _, _, _, _, _ int, _ int64) int64 { return int64(m) }).def(), "month")
	register(extract(func(_, _, d, _, _, _, _ int, _ int64) int64 { return int64(d) }).def(), "day", "dayofmonth")
	register(extract(func(_, _, _, h, _, _, _ int, _ int64) int64 { return int64(h) }).def(), "hour")
	register(extract(func(_, _, _, _, mi, _, _ int, _ int64) int64 { return int64(mi) }).def(), "minute")
	register(extract(func(_, _, _, _, _, s, _ int, _ int64) int64 { return int64(s) }).def(), "second")
	register(extract(func(_, _, _, _, _, _, us int, _ int64) int64 { return int64(us) }).def(), "microsecond")
	register(extract(func(_, _, _, _, _, _, _ int, days int64) int64 { return int64((weekday0(days)+1)%7 + 1) }).def(), "dayofweek")
	register(extract(func(_, _, _, _, _, _, _ int, days int64) int64 { return int64(weekday0(days)) }).def(), "weekday")
	register(extract(func(y, _, _, _, _, _, _ int, days int64) int64 {
		return days - types.DaysFromCivil(y, 1, 1) + 1
	}).def(), "dayofyear")
	register(extract(func(_, _, _, _, _, _, _ int, days int64) int64 { w, _ := weekMode(days, 3); return int64(w) }).def(), "weekofyear")
	register(extract(func(_, _, _, _, _, _, _ int, days int64) int64 { return days + 719528 }).def(), "to_days")
	register(spec{min: 1, max: 2, args: []argKind{aDT, aInt}, ret: fixedType(tInt), fn: func(ctx *Context, a []types.Value) (types.Value, error) {
		days, _ := types.SplitMicros(wallMicros(a[0], ctx))
		mode := 0
		if len(a) > 1 {
			mode = int(a[1].I)
		}
		w, _ := weekMode(days, mode)
		return types.NewInt(types.Int, int64(w)), nil
	}}.def(), "week")
	nameFn := func(month bool) evalFn {
		return func(ctx *Context, a []types.Value) (types.Value, error) {
			days, _ := types.SplitMicros(wallMicros(a[0], ctx))
			if month {
				_, m, _ := types.CivilFromDays(days)
				return types.NewString(types.Varchar, monthNames[m-1]), nil
			}
			return types.NewString(types.Varchar, dayNames[weekday0(days)]), nil
		}
	}
	register(spec{min: 1, max: 1, args: []argKind{aDT}, ret: fixedType(tVarchar), fn: nameFn(true)}.def(), "monthname")
	register(spec{min: 1, max: 1, args: []argKind{aDT}, ret: fixedType(tVarchar), fn: nameFn(false)}.def(), "dayname")
	register(spec{min: 1, max: 1, args: []argKind{aInt}, ret: fixedType(tDate), fn: func(_ *Context, a []types.Value) (types.Value, error) {
		d := a[0].I - 719528
		if !types.DateInRange(d) || a[0].I < 366 {
			return types.NullValue, nil
		}
		return types.NewDate(d), nil
	}}.def(), "from_days")
}

func registerDiffs() {
	register(spec{min: 2, max: 2, args: []argKind{aDT, aDT}, ret: fixedType(tInt), fn: func(ctx *Context, a []types.Value) (types.Value, error) {
		d1, _ := types.SplitMicros(wallMicros(a[0], ctx))
		d2, _ := types.SplitMicros(wallMicros(a[1], ctx))
		return types.NewInt(types.Int, d1-d2), nil
	}}.def(), "datediff")
	diff := func(unit string) evalFn {
		return func(ctx *Context, a []types.Value) (types.Value, error) {
			return types.NewInt(types.BigInt, unitDiff(unit, wallMicros(a[1], ctx), wallMicros(a[0], ctx))), nil
		}
	}
	for _, u := range []string{"YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND"} {
		register(spec{min: 2, max: 2, args: []argKind{aDT, aDT}, ret: fixedType(tBigInt), fn: diff(u)}.def(), unitName(u)+"_diff")
	}
	register(&funcDef{min: 3, max: 3, raw: rawTimestampDiff}, "timestampdiff")
}

// unitDiff is the whole number of units from a to b (b - a), truncated
// toward zero as MySQL TIMESTAMPDIFF does.
func unitDiff(unit string, a, b int64) int64 {
	if m, ok := intervalMonths[unit]; ok {
		ya, ma, da, ha, mia, sa, usa := types.CivilFromMicros(a)
		yb, mb, db, hb, mib, sb, usb := types.CivilFromMicros(b)
		months := int64((yb-ya)*12 + mb - ma)
		restA := types.MicrosFromCivil(1970, 1, da, ha, mia, sa, usa)
		restB := types.MicrosFromCivil(1970, 1, db, hb, mib, sb, usb)
		if months > 0 && restB < restA {
			months--
		} else if months < 0 && restB > restA {
			months++
		}
		return months / m
	}
	return (b - a) / intervalMicros[unit]
}

func rawTimestampDiff(b *binder, name string, args []Expr) (Compiled, error) {
	unit := ""
	switch u := args[0].(type) {
	case *ColumnRef:
		unit = u.Name
	case *Literal:
		unit = u.Val.S
	}
	unit = upper(unit)
	if _, ok := intervalMicros[unit]; !ok {
		if _, ok := intervalMonths[unit]; !ok {
			return nil, errorf("Unsupported time unit: %s", unit)
		}
	}
	return b.bindCall(&Call{P: args[0].Pos(), Name: unitName(unit) + "_diff", Args: []Expr{args[2], args[1]}})
}

func registerUnix() {
	register(&funcDef{min: 0, max: 2, bind: bindUnixTimestamp}, "unix_timestamp")
	register(spec{min: 1, max: 2, args: []argKind{aInt, aStr}, ret: fixedType(tVarchar), volatile: true, fn: func(ctx *Context, a []types.Value) (types.Value, error) {
		if a[0].I < 0 || a[0].I > 32536771199 {
			return types.NullValue, nil
		}
		f := "%Y-%m-%d %H:%i:%s"
		if len(a) > 1 {
			f = a[1].S
		}
		return types.NewString(types.Varchar, formatDate(timeMicros(time.Unix(a[0].I, 0).In(ctx.loc())), f)), nil
	}}.def(), "from_unixtime")
}

func bindUnixTimestamp(name string, args []Compiled) (Compiled, error) {
	n := &funcNode{name: name, t: tInt, volatile: true}
	switch len(args) {
	case 0:
		n.fn = func(ctx *Context, _ []types.Value) (types.Value, error) {
			return types.NewInt(types.Int, ctx.now().Unix()), nil
		}
		return n, nil
	case 2:
		n.args = []Compiled{convertArg(args[0], aStr), convertArg(args[1], aStr)}
		n.fn = func(ctx *Context, a []types.Value) (types.Value, error) {
			micros, ok := parseDate(a[0].S, a[1].S)
			if !ok {
				return types.NullValue, nil
			}
			return unixOf(micros, 0, ctx), nil
		}
		return n, nil
	}
	x := convertArg(args[0], aDT)
	n.args = []Compiled{x}
	scale := int(x.Type().Scale)
	if x.Type().Kind != types.Date && scale > 0 {
		n.t = tDecimal(18, scale)
	}
	n.fn = func(ctx *Context, a []types.Value) (types.Value, error) {
		return unixOf(wallMicros(a[0], ctx), scale, ctx), nil
	}
	return n, nil
}

func unixOf(micros int64, scale int, ctx *Context) types.Value {
	t := wallTime(micros, ctx.loc())
	sec := t.Unix()
	if sec < 0 {
		sec = 0
	}
	if scale == 0 {
		return types.NewInt(types.Int, sec)
	}
	us := int64(t.Nanosecond() / 1000)
	if t.Unix() < 0 {
		us = 0
	}
	v := sec*pow10i64(scale) + us/pow10i64(6-scale)
	return types.Value{Kind: types.Decimal, Scale: int8(scale), I: v, Hi: v >> 63}
}

func pow10i64(n int) int64 {
	r := int64(1)
	for ; n > 0; n-- {
		r *= 10
	}
	return r
}

func bindStrToDate(name string, args []Compiled) (Compiled, error) {
	args[0], args[1] = convertArg(args[0], aStr), convertArg(args[1], aStr)
	t := tDateTime(6)
	if k, ok := args[1].(*constNode); ok && k.v.Kind != types.Null {
		switch hasTime, hasFrac := fmtHasTime(k.v.S); {
		case hasFrac:
		case hasTime:
			t = tDateTime(0)
		default:
			t = tDate
		}
	}
	return &funcNode{name: name, args: args, t: t, fn: func(_ *Context, a []types.Value) (types.Value, error) {
		micros, ok := parseDate(a[0].S, a[1].S)
		if !ok {
			return types.NullValue, nil
		}
		if t.Kind == types.Date {
			days, _ := types.SplitMicros(micros)
			return types.NewDate(days), nil
		}
		return types.NewDateTime(micros, int(t.Scale)), nil
	}}, nil
}

func convertTZ(ctx *Context, a []types.Value) (types.Value, error) {
	from, ok1 := parseTZ(a[1].S)
	to, ok2 := parseTZ(a[2].S)
	if !ok1 || !ok2 {
		return types.NullValue, nil
	}
	micros := timeMicros(wallTime(wallMicros(a[0], ctx), from).In(to))
	return types.Value{Kind: types.DateTime, Scale: a[0].Scale, I: micros}, nil
}
