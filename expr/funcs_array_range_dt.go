package expr

import (
	"strings"

	"loadgw/types"
)

// The DATETIME forms of array_range (alias sequence), as Doris's
// DatetimeFunctionBinder and function_array_range.cpp define them:
// array_range(start, end) steps one DAY; array_range(start, end, INTERVAL n
// unit) steps n units (YEAR, QUARTER, MONTH, WEEK, DAY, HOUR, MINUTE or
// SECOND). Elements are start, start + n units, ... while a whole unit
// remains before end (Doris's datetime_diff<unit>(x, end) > 0). The
// bounds are DATETIME at the larger of their scales; a NULL or invalid
// bound or a step that is not positive gives NULL; more than 1000000
// elements is Doris's "Array size exceeds the limit" error.

func init() {
	register(&funcDef{min: 1, max: 3, raw: rawArrayRange}, "array_range", "sequence")
}

var arrayRangeUnits = map[string]bool{"YEAR": true, "QUARTER": true, "MONTH": true, "WEEK": true, "DAY": true, "HOUR": true, "MINUTE": true, "SECOND": true}

func rawArrayRange(b *binder, name string, args []Expr) (Compiled, error) {
	unit := ""
	var stepExpr Expr
	if len(args) == 3 {
		if iv, ok := args[2].(*Interval); ok {
			unit = strings.ToUpper(iv.Unit)
			if !arrayRangeUnits[unit] {
				return nil, errorf("Unsupported array range time unit: %s, supported time unit: YEAR/QUARTER/MONTH/WEEK/DAY/HOUR/MINUTE/SECOND", unit)
			}
			stepExpr = iv.X
			args = args[:2]
		}
	}
	bound, err := b.bindAll(args)
	if err != nil {
		return nil, err
	}
	dt := unit != ""
	if len(bound) == 2 && !dt {
		for _, a := range bound {
			if isDateLike(a.Type().Kind) {
				dt, unit = true, "DAY"
			}
		}
	}
	if !dt {
		return bindArrayRange(name, bound)
	}
	var scale int8
	for i, a := range bound {
		bound[i] = rangeBound(a)
		if s := bound[i].Type().Scale; s > scale {
			scale = s
		}
	}
	rt := tDateTime(scale)
	for i := range bound {
		bound[i] = convert(bound[i], rt)
	}
	if stepExpr != nil {
		step, err := b.bind(stepExpr)
		if err != nil {
			return nil, err
		}
		bound = append(bound, convert(convertArg(step, aInt), tInt))
	}
	at := types.ArrayOf(rt, false)
	return nestedNode(name, bound, at, func(ctx *Context, v []types.Value) (types.Value, error) {
		for _, a := range v {
			if a.IsNull() {
				return types.NullValue, nil
			}
		}
		step := int64(1)
		if len(v) == 3 {
			step = v[2].I
		}
		if step <= 0 {
			return types.NullValue, nil
		}
		idx, end := v[0].I, v[1].I
		out := types.Nested{Type: at}
		for unitDiff(unit, idx, end) > 0 {
			if len(out.Elems) > maxArraySize {
				return types.NullValue, errorf("Array size exceeds the limit %d", maxArraySize)
			}
			out.Elems = append(out.Elems, types.Value{Kind: types.DateTime, Scale: scale, I: idx})
			next, ok := addUnits(idx, unit, step)
			if !ok {
				return types.NullValue, errorf("Operation %s_add of %s, %d out of range", unitName(unit), safeFormat(types.Value{Kind: types.DateTime, Scale: scale, I: idx}), step)
			}
			idx = next
		}
		return out.Encode(), nil
	}), nil
}

// rangeBound is a bound as DATETIME: DATE at midnight, a constant string
// at the scale of its fraction (Doris's DateTimeV2Literal), other values
// cast to DATETIME(0) unless they already are DATETIME.
func rangeBound(c Compiled) Compiled {
	t := c.Type()
	switch {
	case t.Kind == types.DateTime:
		return c
	case t.Kind == types.Null:
		return &constNode{v: types.NullValue, t: tDateTime(0)}
	case isString(t.Kind):
		if k, ok := c.(*constNode); ok && !k.v.IsNull() {
			s := strings.TrimSpace(k.v.S)
			scale := int8(0)
			if i := strings.LastIndexByte(s, '.'); i >= 0 && strings.ContainsAny(s, ":T ") {
				scale = int8(min(len(s)-i-1, 6))
			}
			return &castNode{x: c, to: tDateTime(scale)}
		}
		return &castNode{x: c, to: tDateTime(6)}
	case t.Kind == types.TimestampTZ:
		return &castNode{x: c, to: tDateTime(t.Scale)}
	}
	return &castNode{x: c, to: tDateTime(0)}
}

// addUnits adds n units to DATETIME microseconds; ok is false outside
// Doris's range.
func addUnits(micros int64, unit string, n int64) (int64, bool) {
	if m, ok := intervalMonths[unit]; ok {
		return types.AddMonthsToMicros(micros, n*m)
	}
	step := intervalMicros[unit]
	if n > 1<<62/step {
		return 0, false
	}
	return types.AddMicros(micros, n*step)
}
