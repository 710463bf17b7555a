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
	if !isNumeric(other.Kind) && !isDateLike(other.Kind) && other.Kind != types.Boolean {
		return c
	}
	if isIntegral(other.Kind) {
		// The literal keeps its own size: '1000' against a TINYINT is 1000.
		if v, err := safeCast(k.v, tLargeInt); err == nil {
			if i := i128From(v); i.isInt64() {
				v = types.NewInt(types.BigInt, int64(i.lo))
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

func largeFn(op string) binFn {
	mk := func(f func(a, b i128) (i128, bool)) binFn {
		return func(a, b types.Value, _ *Context) (types.Value, error) {
			x, ok := f(i128From(a), i128From(b))
			if !ok {
				return types.NullValue, nil
			}
			return x.value(types.LargeInt, 0), nil
		}
	}
	switch op {
	case "+":
		return mk(func(a, b i128) (i128, bool) { return a.add(b), true })
	case "-":
		return mk(func(a, b i128) (i128, bool) { return a.sub(b), true })
	case "*":
		return mk(func(a, b i128) (i128, bool) { return a.mul(b), true })
	case "DIV", "%":
		return mk(func(a, b i128) (i128, bool) {
			if b.sign() == 0 {
				return i128{}, false
			}
			var q *big.Int
			if op == "DIV" {
				q = new(big.Int).Quo(a.big(), b.big())
			} else {
				q = new(big.Int).Rem(a.big(), b.big())
			}
			r, _ := fromBig(q)
			return r, true
		})
	case "&":
		return mk(func(a, b i128) (i128, bool) { return i128{a.hi & b.hi, a.lo & b.lo}, true })
	case "|":
		return mk(func(a, b i128) (i128, bool) { return i128{a.hi | b.hi, a.lo | b.lo}, true })
	case "^":
		return mk(func(a, b i128) (i128, bool) { return i128{a.hi ^ b.hi, a.lo ^ b.lo}, true })
	}
	return nil
}

// asFloat reads any numeric value as a float64.
func asFloat(v types.Value) float64 {
	switch v.Kind {
	case types.Float, types.Double:
		return v.F
	case types.LargeInt:
		f, _ := new(big.Float).SetInt(i128From(v).big()).Float64()
		return f
	case types.Decimal:
		if v.Hi == v.I>>63 && v.Scale <= 15 {
			return float64(v.I) / math.Pow10(int(v.Scale))
		}
		r := new(big.Rat).SetFrac(i128From(v).big(), pow10Big[v.Scale])
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
			x := i128From(a)
			return i128{^x.hi, ^x.lo}.value(types.LargeInt, 0), nil
		}
		return types.Value{Kind: t.Kind, I: wrapInt(t.Kind, ^a.I)}, nil
	}
}
