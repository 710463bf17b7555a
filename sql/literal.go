package sql

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"loadgw/expr"
	"loadgw/types"
)

// maxDecimalPrecision is the widest DECIMAL literal; wider ones are DOUBLE.
const maxDecimalPrecision = 38

var (
	minInt128 = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 127))
	maxInt128 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))
	mask64    = new(big.Int).SetUint64(^uint64(0))
)

// parseInt64 parses decimal digits, negated when neg, reporting whether the
// result fits in int64.
func parseInt64(digits string, neg bool) (int64, bool) {
	if neg {
		digits = "-" + digits
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	return n, err == nil
}

// numberLiteral builds the literal of number token t (negated when neg)
// positioned at pos: BIGINT if it fits, else LARGEINT, else DOUBLE for
// integers; DECIMAL(p,s) of its digits for fractions (DOUBLE beyond 38
// digits); DOUBLE with an exponent.
func numberLiteral(t token, neg bool, pos int) expr.Expr {
	switch t.kind {
	case tkInt:
		return intLiteral(t.text, neg, pos)
	case tkDecimal:
		return decimalLiteral(t.text, neg, pos)
	}
	return doubleLiteral(t.text, neg, pos)
}

func intLiteral(digits string, neg bool, pos int) expr.Expr {
	if n, ok := parseInt64(digits, neg); ok {
		return &expr.Literal{P: pos, Val: types.NewInt(types.BigInt, n), Type: types.Type{Kind: types.BigInt}}
	}
	x, _ := new(big.Int).SetString(digits, 10)
	if neg {
		x.Neg(x)
	}
	if x.Cmp(minInt128) < 0 || x.Cmp(maxInt128) > 0 {
		return doubleLiteral(digits, neg, pos)
	}
	hi, lo := toInt128(x)
	v := types.Value{Kind: types.LargeInt, Hi: hi, I: int64(lo)}
	return &expr.Literal{P: pos, Val: v, Type: types.Type{Kind: types.LargeInt}}
}

func decimalLiteral(text string, neg bool, pos int) expr.Expr {
	intPart, frac, _ := strings.Cut(text, ".")
	scale := len(frac)
	x, _ := new(big.Int).SetString("0"+intPart+frac, 10)
	precision := len(x.String())
	if precision < scale {
		precision = scale
	}
	if precision > maxDecimalPrecision {
		return doubleLiteral(text, neg, pos)
	}
	if neg {
		x.Neg(x)
	}
	hi, lo := toInt128(x)
	v := types.Value{Kind: types.Decimal, Scale: int8(scale), Hi: hi, I: int64(lo)}
	typ := types.Type{Kind: types.Decimal, Precision: int8(precision), Scale: int8(scale)}
	return &expr.Literal{P: pos, Val: v, Type: typ}
}

func doubleLiteral(text string, neg bool, pos int) expr.Expr {
	f, _ := strconv.ParseFloat(text, 64) // ±Inf on overflow, like Java's parseDouble
	if neg {
		f = -f
	}
	return &expr.Literal{P: pos, Val: types.NewFloat(types.Double, f), Type: types.Type{Kind: types.Double}}
}

// toInt128 splits x (which must fit) into its two's complement halves.
func toInt128(x *big.Int) (hi int64, lo uint64) {
	lo = new(big.Int).And(x, mask64).Uint64()
	hi = new(big.Int).Rsh(x, 64).Int64()
	return hi, lo
}

// fromInt128 joins two's complement halves into a big.Int.
func fromInt128(hi int64, lo uint64) *big.Int {
	x := new(big.Int).Lsh(big.NewInt(hi), 64)
	return x.Or(x, new(big.Int).SetUint64(lo))
}

// stringLiteral is a VARCHAR literal whose length is its byte length.
func stringLiteral(pos int, s string) *expr.Literal {
	return &expr.Literal{P: pos, Val: types.NewString(types.Varchar, s),
		Type: types.Type{Kind: types.Varchar, Len: int32(len(s))}}
}

// typedLiteral parses DATE 'x' / DATEV1 / DATEV2 / TIMESTAMP 'x' into a
// DATE or DATETIME literal; the DATETIME scale is the number of fractional
// digits written (at most 6). Invalid text fails like Doris's analyzer.
func (p *parser) typedLiteral() expr.Expr {
	kw := p.next()
	s := p.next().text
	typ := types.Type{Kind: types.Date}
	if kw.up == "TIMESTAMP" {
		typ = types.Type{Kind: types.DateTime, Scale: fractionDigits(s)}
	}
	v, err := types.ParseValue(s, typ, time.UTC)
	if err != nil || v.IsNull() {
		p.fail(fmt.Errorf("date/datetime literal [%s] is invalid", s))
	}
	return &expr.Literal{P: kw.off, Val: v, Type: typ}
}

// fractionDigits counts the digits after the last '.' of a datetime text.
func fractionDigits(s string) int8 {
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return 0
	}
	n := int8(0)
	for _, c := range []byte(s[i+1:]) {
		if !isDigit(c) || n == 6 {
			break
		}
		n++
	}
	return n
}
