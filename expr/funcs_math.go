package expr

import (
	"cmp"
	"math"

	"loadgw/types"
)

func floatFn1(f func(x float64) (float64, bool)) *funcDef {
	return spec{min: 1, max: 1, args: []argKind{aDouble}, ret: fixedType(tDouble), fn: func(_ *Context, a []types.Value) (types.Value, error) {
		r, ok := f(asFloat(a[0]))
		if !ok || math.IsNaN(r) || math.IsInf(r, 0) {
			return types.NullValue, nil
		}
		return types.NewFloat(types.Double, r), nil
	}}.def()
}

func init() {
	register(floatFn1(func(x float64) (float64, bool) { return math.Sqrt(x), x >= 0 }), "sqrt", "dsqrt")
	register(floatFn1(func(x float64) (float64, bool) { return math.Log(x), x > 0 }), "ln", "dlog1")
	register(floatFn1(func(x float64) (float64, bool) { return math.Log10(x), x > 0 }), "log10", "dlog10")
	register(floatFn1(func(x float64) (float64, bool) { return math.Log2(x), x > 0 }), "log2")
	register(floatFn1(func(x float64) (float64, bool) { return math.Exp(x), true }), "exp", "dexp")
	register(floatFn1(func(x float64) (float64, bool) { return math.Sin(x), true }), "sin")
	register(floatFn1(func(x float64) (float64, bool) { return math.Cos(x), true }), "cos")
	register(floatFn1(func(x float64) (float64, bool) { return math.Tan(x), true }), "tan")
	register(floatFn1(func(x float64) (float64, bool) { return math.Asin(x), x >= -1 && x <= 1 }), "asin")
	register(floatFn1(func(x float64) (float64, bool) { return math.Acos(x), x >= -1 && x <= 1 }), "acos")
	register(floatFn1(func(x float64) (float64, bool) { return math.Atan(x), true }), "atan")
	register(floatFn1(func(x float64) (float64, bool) { return x * 180 / math.Pi, true }), "degrees")
	register(floatFn1(func(x float64) (float64, bool) { return x * math.Pi / 180, true }), "radians")
	register(spec{min: 1, max: 2, args: []argKind{aDouble}, ret: fixedType(tDouble), fn: logFn}.def(), "log")
	register(spec{min: 2, max: 2, args: []argKind{aDouble}, ret: fixedType(tDouble), fn: func(_ *Context, a []types.Value) (types.Value, error) {
		r := math.Pow(a[0].F, a[1].F)
		if math.IsNaN(r) || math.IsInf(r, 0) {
			return types.NullValue, nil
		}
		return types.NewFloat(types.Double, r), nil
	}}.def(), "pow", "power", "dpow", "fpow")
	register(spec{max: 0, ret: fixedType(tDouble), fn: func(*Context, []types.Value) (types.Value, error) {
		return types.NewFloat(types.Double, math.Pi), nil
	}}.def(), "pi")
	register(spec{max: 0, ret: fixedType(tDouble), fn: func(*Context, []types.Value) (types.Value, error) {
		return types.NewFloat(types.Double, math.E), nil
	}}.def(), "e")
	register(spec{min: 1, max: 1, args: []argKind{aNum}, ret: fixedType(tTinyInt), fn: func(_ *Context, a []types.Value) (types.Value, error) {
		return types.NewInt(types.TinyInt, int64(signOf(a[0]))), nil
	}}.def(), "sign")
	register(&funcDef{min: 1, max: 1, bind: bindAbs}, "abs")
	register(&funcDef{min: 2, max: 2, bind: func(name string, args []Compiled) (Compiled, error) {
		return bindArith(&Binary{Op: "%"}, args[0], args[1])
	}}, "mod", "fmod")
	register(&funcDef{min: 1, max: 2, bind: bindRound(roundHalfUp)}, "round", "dround")
	register(&funcDef{min: 1, max: 2, bind: bindRound(roundTrunc)}, "truncate")
	register(&funcDef{min: 1, max: 1, bind: bindRound(roundFloor)}, "floor", "dfloor")
	register(&funcDef{min: 1, max: 1, bind: bindRound(roundCeil)}, "ceil", "ceiling", "dceil")
}

func logFn(_ *Context, a []types.Value) (types.Value, error) {
	var r float64
	if len(a) == 1 {
		if a[0].F <= 0 {
			return types.NullValue, nil
		}
		r = math.Log(a[0].F)
	} else {
		if a[0].F <= 0 || a[0].F == 1 || a[1].F <= 0 {
			return types.NullValue, nil
		}
		r = math.Log(a[1].F) / math.Log(a[0].F)
	}
	return types.NewFloat(types.Double, r), nil
}

func signOf(v types.Value) int {
	switch v.Kind {
	case types.Float, types.Double:
		return types.CompareFloat64(v.F, 0) // NaN is 1
	case types.LargeInt, types.Decimal:
		return types.Int128Of(v).Sign()
	}
	return cmp.Compare(v.I, 0)
}

// bindAbs: abs(TINYINT) is SMALLINT ... abs(BIGINT) LARGEINT (the result of
// -MIN must fit); decimals and doubles keep their type.
func bindAbs(name string, args []Compiled) (Compiled, error) {
	x := convertArg(args[0], aNum)
	t := x.Type()
	if isIntegral(t.Kind) {
		t = promotion(t)
	} else if t.Kind == types.Boolean {
		t = tSmallInt
	}
	return &funcNode{name: name, args: []Compiled{x}, t: t, fn: func(_ *Context, a []types.Value) (types.Value, error) {
		v := a[0]
		switch t.Kind {
		case types.Double, types.Float:
			return types.Value{Kind: t.Kind, F: math.Abs(v.F)}, nil
		case types.LargeInt, types.Decimal:
			i, _ := types.UnscaledOf(v)
			if i.Sign() < 0 {
				i, _ = i.Neg() // abs(MinInt128) wraps to MinInt128
			}
			return types.Value{Kind: t.Kind, Scale: v.Scale, I: int64(i.Lo), Hi: i.Hi}, nil
		}
		if v.I < 0 {
			v.I = -v.I
		}
		return types.Value{Kind: t.Kind, I: v.I}, nil
	}}, nil
}

type roundMode uint8

const (
	roundHalfUp roundMode = iota
	roundTrunc
	roundFloor
	roundCeil
)

// bindRound implements round/truncate/floor/ceil. Doubles stay DOUBLE;
// integers and decimals are computed exactly as DECIMAL, the result scale
// being min(s, d) for a constant d (0 for floor/ceil).
func bindRound(mode roundMode) func(string, []Compiled) (Compiled, error) {
	return func(name string, args []Compiled) (Compiled, error) {
		x := convertArg(args[0], aNum)
		var d Compiled = &constNode{v: types.NewInt(types.Int, 0), t: tInt}
		if len(args) > 1 {
			d = convertArg(args[1], aInt)
		}
		xt := x.Type()
		all := []Compiled{x, d}
		if isFloat(xt.Kind) {
			return &funcNode{name: name, args: all, t: tDouble, fn: func(_ *Context, a []types.Value) (types.Value, error) {
				return types.NewFloat(types.Double, roundFloat(asFloat(a[0]), int(a[1].I), mode)), nil
			}}, nil
		}
		dt := decimalFor(xt)
		scale := int(dt.Scale)
		if k, ok := d.(*constNode); ok && k.v.Kind != types.Null {
			scale = max(0, min(scale, int(k.v.I)))
		}
		rt := tDecimal(int(dt.Precision), scale)
		if isIntegral(xt.Kind) {
			rt = xt
		}
		return &funcNode{name: name, args: all, t: rt, fn: func(_ *Context, a []types.Value) (types.Value, error) {
			x, sx := types.UnscaledOf(a[0])
			q, qs := roundUnits(x, sx, int(a[1].I), mode)
			if isIntegral(rt.Kind) {
				// sx is 0 and qs <= 0: the result wraps modulo 2^128 like
				// LARGEINT arithmetic (round(MaxInt128, -38) is negative).
				r := mulPow10Wrap(q, -qs)
				if rt.Kind == types.LargeInt {
					return types.NewLargeInt(r), nil
				}
				return types.NewInt(rt.Kind, r.Int64()), nil
			}
			r, ok := types.RescaleDecimal(q, qs, int(rt.Scale))
			if !ok {
				exact := types.DecimalExact('*', q, qs, types.FromInt64(1), 0, int(rt.Scale))
				return types.NullValue, overflowError(exact.String(), rt)
			}
			return makeDecimal(r, rt)
		}}, nil
	}
}

// roundUnits rounds the unscaled x (scale sx) to d fraction digits by mode
// and returns the result as the unscaled q at scale qs = min(sx, d); qs is
// negative when d is. roundFloor and roundCeil only come with d = 0, so
// their drop of sx - d digits is at most 38.
func roundUnits(x types.Int128, sx, d int, mode roundMode) (q types.Int128, qs int) {
	drop := sx - d
	switch {
	case drop <= 0:
		return x, sx
	case drop > 2*types.MaxDecimalPrecision:
		return types.Int128{}, sx
	case drop > types.MaxDecimalPrecision:
		// 10^drop > 2|x|: the quotient is 0 and the remainder x.
		switch {
		case mode == roundFloor && x.Sign() < 0:
			q = types.FromInt64(-1)
		case mode == roundCeil && x.Sign() > 0:
			q = types.FromInt64(1)
		}
		return q, sx - drop
	}
	unit := types.Pow10(drop)
	q, r, _ := x.QuoRem(unit)
	one := types.FromInt64(1)
	switch mode {
	case roundHalfUp:
		// Half away from zero: 2|r| >= unit, written |r| >= unit-|r| so that
		// it cannot overflow.
		m := r
		if r.Sign() < 0 {
			m, _ = r.Neg()
		}
		if rest, _ := unit.Sub(m); m.Cmp(rest) >= 0 {
			if x.Sign() < 0 {
				q, _ = q.Sub(one)
			} else {
				q, _ = q.Add(one)
			}
		}
	case roundFloor:
		if r.Sign() < 0 {
			q, _ = q.Sub(one)
		}
	case roundCeil:
		if r.Sign() > 0 {
			q, _ = q.Add(one)
		}
	}
	return q, sx - drop
}

// mulPow10Wrap returns q*10^n modulo 2^128.
func mulPow10Wrap(q types.Int128, n int) types.Int128 {
	for ; n > types.MaxDecimalPrecision; n -= types.MaxDecimalPrecision {
		q = q.MulWrap(types.Pow10(types.MaxDecimalPrecision))
	}
	return q.MulWrap(types.Pow10(n))
}

func roundFloat(x float64, d int, mode roundMode) float64 {
	p := math.Pow10(d)
	y := x * p
	switch mode {
	case roundHalfUp:
		y = math.Round(y)
	case roundTrunc:
		y = math.Trunc(y)
	case roundFloor:
		y = math.Floor(y)
	case roundCeil:
		y = math.Ceil(y)
	}
	return y / p
}
