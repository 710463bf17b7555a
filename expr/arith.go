package expr

import (
	"fmt"
	"math"
	"math/big"

	"loadgw/types"
)

func bindArith(e *Binary, l, r Compiled) (Compiled, error) {
	lt, rt := l.Type(), r.Type()
	if !arithOperand(lt.Kind) || !arithOperand(rt.Kind) {
		return nil, errorf("Can not find the compatibility function signature: %s(%s, %s)",
			arithName(e.Op), typeName(lt), typeName(rt))
	}
	l, r = literalTo(l, rt), literalTo(r, lt)
	for _, c := range []Compiled{l, r} {
		if k, ok := c.(*constNode); ok && isString(k.v.Kind) {
			if _, err := safeCast(k.v, tDouble); err != nil {
				return nil, errorf("string literal '%s' cannot be cast to double", k.v.S)
			}
		}
	}
	opT, resT := arithTypes(e.Op, l.Type(), r.Type())
	l, r = numericOperand(l, opT), numericOperand(r, opT)
	fn := arithFn(e.Op, resT)
	if fn == nil {
		return nil, errorf("unsupported operator %s", e.Op)
	}
	if resT.Kind == types.Decimal && (e.Op == "+" || e.Op == "-" || e.Op == "*") {
		return newDecimalArith(e.Op, l, r, resT, fn), nil
	}
	return &binaryNode{l: l, r: r, t: resT, fn: fn}, nil
}

func arithName(op string) string {
	switch op {
	case "+":
		return "add"
	case "-":
		return "subtract"
	case "*":
		return "multiply"
	case "/":
		return "divide"
	case "%":
		return "mod"
	case "DIV":
		return "int_divide"
	case "&":
		return "bitand"
	case "|":
		return "bitor"
	case "^":
		return "bitxor"
	}
	return op
}

func arithOperand(k types.Kind) bool {
	return isNumeric(k) || k == types.Boolean || k == types.Null || isString(k) || isDateLike(k)
}

// literalTo converts a string constant to the other operand's type when
// that works (Nereids processCharacterLiteralInBinaryOperator).
func literalTo(c Compiled, other types.Type) Compiled {
	k, ok := c.(*constNode)
	if !ok || !isString(k.t.Kind) || k.v.Kind == types.Null || isString(other.Kind) || other.Kind == types.Null {
		return c
	}
	if !isNumeric(other.Kind) && !isDateLike(other.Kind) && other.Kind != types.Boolean && !isIP(other.Kind) {
		return c
	}
	if isIntegral(other.Kind) {
		// The literal keeps its own size: '1000' against a TINYINT is 1000.
		if v, err := safeCast(k.v, tLargeInt); err == nil {
			if i, _ := types.UnscaledOf(v); i.IsInt64() {
				v = types.NewInt(types.BigInt, i.Int64())
				return bindLiteral(&Literal{Val: v, Type: tBigInt})
			}
			return &constNode{v: v, t: tLargeInt}
		}
		return c
	}
	target := other
	if other.Kind == types.Decimal {
		target = tDecimal(38, min(int(other.Scale)+9, 18))
	}
	if v, err := safeCast(k.v, target); err == nil {
		return &constNode{v: v, t: target}
	}
	return c
}

// safeCast is types.Cast that tolerates a types package still being built.
func safeCast(v types.Value, t types.Type) (out types.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cast: %v", r)
		}
	}()
	return types.Cast(v, t, nil)
}

// numericOperand casts non-numeric operands to the operator's operand type;
// numeric ones are read directly by the arithmetic kernels.
func numericOperand(c Compiled, opT types.Type) Compiled {
	k := c.Type().Kind
	if isNumeric(k) || k == types.Boolean || k == types.Null {
		return c
	}
	return &castNode{x: c, to: opT}
}

func arithFn(op string, t types.Type) binFn {
	switch t.Kind {
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		return intFn(op, t.Kind)
	case types.LargeInt:
		return largeFn(op)
	case types.Double, types.Float:
		return floatFn(op, t.Kind)
	case types.Decimal:
		return decimalFn(op, t)
	}
	return nil
}

func wrapInt(k types.Kind, x int64) int64 {
	switch k {
	case types.TinyInt:
		return int64(int8(x))
	case types.SmallInt:
		return int64(int16(x))
	case types.Int:
		return int64(int32(x))
	}
	return x
}

func intFn(op string, k types.Kind) binFn {
	mk := func(f func(a, b int64) (int64, bool)) binFn {
		return func(a, b types.Value, _ *Context) (types.Value, error) {
			x, ok := f(a.I, b.I)
			if !ok {
				return types.NullValue, nil
			}
			return types.Value{Kind: k, I: wrapInt(k, x)}, nil
		}
	}
	switch op {
	case "+":
		return mk(func(a, b int64) (int64, bool) { return a + b, true })
	case "-":
		return mk(func(a, b int64) (int64, bool) { return a - b, true })
	case "*":
		return mk(func(a, b int64) (int64, bool) { return a * b, true })
	case "DIV":
		return mk(func(a, b int64) (int64, bool) { return safeDiv(a, b) })
	case "%":
		return mk(func(a, b int64) (int64, bool) { return safeMod(a, b) })
	case "&":
		return mk(func(a, b int64) (int64, bool) { return a & b, true })
	case "|":
		return mk(func(a, b int64) (int64, bool) { return a | b, true })
	case "^":
		return mk(func(a, b int64) (int64, bool) { return a ^ b, true })
	}
	return nil
}

func safeDiv(a, b int64) (int64, bool) {
	if b == 0 {
		return 0, false
	}
	return a / b, true
}

func safeMod(a, b int64) (int64, bool) {
	if b == 0 {
		return 0, false
	}
	return a % b, true
}

// largeFn is the LARGEINT kernel. + - * and the bit operators wrap modulo
// 2^128 like C++ __int128, which is what Doris's backend does, so the
// overflow flags of types.Int128's checked arithmetic are ignored on purpose.
// DIV and % by zero are NULL.
func largeFn(op string) binFn {
	mk := func(f func(a, b types.Int128) (types.Int128, bool)) binFn {
		return func(a, b types.Value, _ *Context) (types.Value, error) {
			x, _ := types.UnscaledOf(a)
			y, _ := types.UnscaledOf(b)
			r, ok := f(x, y)
			if !ok {
				return types.NullValue, nil
			}
			return types.NewLargeInt(r), nil
		}
	}
	switch op {
	case "+":
		return mk(func(a, b types.Int128) (types.Int128, bool) {
			r, _ := a.Add(b) // wraps on overflow
			return r, true
		})
	case "-":
		return mk(func(a, b types.Int128) (types.Int128, bool) {
			r, _ := a.Sub(b) // wraps on overflow
			return r, true
		})
	case "*":
		return mk(func(a, b types.Int128) (types.Int128, bool) { return a.MulWrap(b), true })
	case "DIV", "%":
		return mk(func(a, b types.Int128) (types.Int128, bool) {
			if b.IsZero() {
				return types.Int128{}, false
			}
			q, r, ok := a.QuoRem(b)
			if !ok {
				// MinInt128 DIV -1 wraps to MinInt128; the remainder is 0.
				q, r = a, types.Int128{}
			}
			if op == "DIV" {
				return q, true
			}
			return r, true
		})
	case "&":
		return mk(func(a, b types.Int128) (types.Int128, bool) {
			return types.Int128{Hi: a.Hi & b.Hi, Lo: a.Lo & b.Lo}, true
		})
	case "|":
		return mk(func(a, b types.Int128) (types.Int128, bool) {
			return types.Int128{Hi: a.Hi | b.Hi, Lo: a.Lo | b.Lo}, true
		})
	case "^":
		return mk(func(a, b types.Int128) (types.Int128, bool) {
			return types.Int128{Hi: a.Hi ^ b.Hi, Lo: a.Lo ^ b.Lo}, true
		})
	}
	return nil
}

// asFloat reads any numeric value as a float64.
func asFloat(v types.Value) float64 {
	switch v.Kind {
	case types.Float, types.Double:
		return v.F
	case types.LargeInt:
		x := types.Int128Of(v)
		if x.IsInt64() {
			return float64(x.Int64())
		}
		// Nearest float64; types.Int128.Float64 may round twice.
		f, _ := new(big.Float).SetInt(x.Big()).Float64()
		return f
	case types.Decimal:
		if v.Hi == v.I>>63 && v.Scale <= 15 {
			return float64(v.I) / math.Pow10(int(v.Scale))
		}
		// The nearest float64 of the exact quotient, unlike
		// types.DecimalToFloat64's double(unscaled)/double(10^scale).
		r := new(big.Rat).SetFrac(types.Int128Of(v).Big(), types.Pow10(int(v.Scale)).Big())
		f, _ := r.Float64()
		return f
	}
	return float64(v.I)
}

func floatFn(op string, k types.Kind) binFn {
	mk := func(f func(a, b float64) (float64, bool)) binFn {
		return func(a, b types.Value, _ *Context) (types.Value, error) {
			x, ok := f(asFloat(a), asFloat(b))
			if !ok {
				return types.NullValue, nil
			}
			if k == types.Float {
				x = float64(float32(x))
			}
			return types.Value{Kind: k, F: x}, nil
		}
	}
	switch op {
	case "+":
		return mk(func(a, b float64) (float64, bool) { return a + b, true })
	case "-":
		return mk(func(a, b float64) (float64, bool) { return a - b, true })
	case "*":
		return mk(func(a, b float64) (float64, bool) { return a * b, true })
	case "/":
		return mk(func(a, b float64) (float64, bool) { return a / b, b != 0 })
	case "%":
		return mk(func(a, b float64) (float64, bool) { return math.Mod(a, b), b != 0 })
	}
	return nil
}

func bitNotFn(t types.Type) func(types.Value, *Context) (types.Value, error) {
	return func(a types.Value, _ *Context) (types.Value, error) {
		if t.Kind == types.LargeInt {
			x, _ := types.UnscaledOf(a)
			return types.NewLargeInt(types.Int128{Hi: ^x.Hi, Lo: ^x.Lo}), nil
		}
		return types.Value{Kind: t.Kind, I: wrapInt(t.Kind, ^a.I)}, nil
	}
}
