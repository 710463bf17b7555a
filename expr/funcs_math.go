package expr

import (
	"math"
	"math/big"

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
		return cmpFloat(v.F, 0)
	case types.LargeInt, types.Decimal:
		return i128From(v).sign()
	}
	return cmpInt(v.I, 0)
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
			i := i128From(v)
			if i.sign() < 0 {
				i = i.neg()
			}
			return i.value(t.Kind, v.Scale), nil
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
			x, sx := unscaled(a[0])
			r := roundBig(x, sx, int(a[1].I), mode)
			r = rescale(r, sx, int(rt.Scale))
			if isIntegral(rt.Kind) {
				v, _ := fromBig(r)
				if rt.Kind == types.LargeInt {
					return v.value(types.LargeInt, 0), nil
				}
				return types.NewInt(rt.Kind, int64(v.lo)), nil
			}
			return makeDecimal(r, rt)
		}}, nil
	}
}

// roundBig rounds the unscaled x (scale sx) to d fractional digits, keeping
// scale sx.
func roundBig(x *big.Int, sx, d int, mode roundMode) *big.Int {
	drop := sx - d
	if drop <= 0 {
		return x
	}
	if drop > 76 {
		return new(big.Int)
	}
	unit := pow10Big[drop]
	q, r := new(big.Int).QuoRem(x, unit, new(big.Int))
	switch mode {
	case roundHalfUp:
		r2 := new(big.Int).Abs(r)
		if r2.Lsh(r2, 1).Cmp(unit) >= 0 {
			q.Add(q, big.NewInt(int64(x.Sign())))
		}
	case roundFloor:
		if r.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		}
	case roundCeil:
		if r.Sign() > 0 {
			q.Add(q, big.NewInt(1))
		}
	}
	return q.Mul(q, unit)
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
