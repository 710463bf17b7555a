package expr

import "loadgw/types"

// Result-type rules, following Nereids TypeCoercionUtils
// (processBinaryArithmetic, processDivide, processIntegralDivide,
// findWiderTypeForTwo and the comparison variant).

var (
	tNull     = types.Type{Kind: types.Null}
	tBool     = types.Type{Kind: types.Boolean}
	tTinyInt  = types.Type{Kind: types.TinyInt}
	tSmallInt = types.Type{Kind: types.SmallInt}
	tInt      = types.Type{Kind: types.Int}
	tBigInt   = types.Type{Kind: types.BigInt}
	tLargeInt = types.Type{Kind: types.LargeInt}
	tFloat    = types.Type{Kind: types.Float}
	tDouble   = types.Type{Kind: types.Double}
	tDate     = types.Type{Kind: types.Date}
	tVarchar  = types.Type{Kind: types.Varchar, Len: types.MaxVarcharLen}
	tString   = types.Type{Kind: types.String}
	tJSON     = types.Type{Kind: types.JSON}
)

func tDateTime(scale int8) types.Type { return types.Type{Kind: types.DateTime, Scale: scale} }

func tDecimal(p, s int) types.Type {
	if p > 38 {
		p = 38
	}
	if p < 1 {
		p = 1
	}
	if s > p {
		s = p
	}
	return types.Type{Kind: types.Decimal, Precision: int8(p), Scale: int8(s)}
}

func isIntegral(k types.Kind) bool { return k >= types.TinyInt && k <= types.LargeInt }
func isSmallInt(k types.Kind) bool { return k >= types.TinyInt && k <= types.BigInt }
func isFloat(k types.Kind) bool    { return k == types.Float || k == types.Double }
func isNumeric(k types.Kind) bool  { return k >= types.TinyInt && k <= types.Decimal }
func isString(k types.Kind) bool   { return k == types.Char || k == types.Varchar || k == types.String }
func isDateLike(k types.Kind) bool {
	return k == types.Date || k == types.DateTime || k == types.TimestampTZ
}

// numericRank is NUMERIC_PRECEDENCE: a higher rank wins.
func numericRank(k types.Kind) int {
	switch k {
	case types.Double:
		return 7
	case types.Float:
		return 6
	case types.LargeInt:
		return 5
	case types.BigInt:
		return 4
	case types.Int:
		return 3
	case types.SmallInt:
		return 2
	case types.TinyInt:
		return 1
	}
	return 0
}

// numResultType is getNumResultType: the numeric type an operand of an
// arithmetic operator is treated as.
func numResultType(t types.Type) types.Type {
	switch {
	case isNumeric(t.Kind):
		return t
	case t.Kind == types.Boolean, t.Kind == types.Null:
		return tTinyInt
	}
	return tDouble
}

// promotion is DataType.promotion(): the result type of + - * on integers.
func promotion(t types.Type) types.Type {
	switch t.Kind {
	case types.TinyInt:
		return tSmallInt
	case types.SmallInt:
		return tInt
	case types.Int:
		return tBigInt
	case types.BigInt, types.LargeInt:
		return tLargeInt
	case types.Float:
		return tDouble
	}
	return t
}

// decimalFor is DecimalV3Type.forType.
func decimalFor(t types.Type) types.Type {
	switch t.Kind {
	case types.Boolean:
		return tDecimal(1, 0)
	case types.TinyInt:
		return tDecimal(3, 0)
	case types.SmallInt:
		return tDecimal(5, 0)
	case types.Int:
		return tDecimal(10, 0)
	case types.BigInt:
		return tDecimal(20, 0)
	case types.LargeInt:
		return tDecimal(38, 0)
	case types.Float:
		return tDecimal(14, 7)
	case types.Double:
		return tDecimal(30, 15)
	case types.Decimal:
		return t
	}
	return tDecimal(38, 9)
}

func higherRank(a, b types.Type) types.Type {
	if numericRank(b.Kind) > numericRank(a.Kind) {
		return b
	}
	return a
}

// arithTypes returns the operand type both sides are cast to and the result
// type of the arithmetic operator op.
func arithTypes(op string, lt, rt types.Type) (operand, result types.Type) {
	t1, t2 := numResultType(lt), numResultType(rt)
	common := higherRank(t1, t2)
	anyDec := t1.Kind == types.Decimal || t2.Kind == types.Decimal
	if isFloat(common.Kind) && anyDec {
		common = tDouble
	}
	switch op {
	case "&", "|", "^", "DIV":
		if !isIntegral(t1.Kind) || !isIntegral(t2.Kind) {
			common = higherRank(intOrBig(t1), intOrBig(t2))
		}
		return common, common
	case "/":
		if isFloat(t1.Kind) || isFloat(t2.Kind) || !anyDec {
			return tDouble, tDouble
		}
		d1, d2 := decimalFor(t1), decimalFor(t2)
		r := tDecimal(int(d1.Precision)+int(d2.Scale)+4, int(d1.Scale)+4)
		return r, r
	}
	if op == "%" && t1.Kind == types.Float && t2.Kind == types.Float {
		return tFloat, tFloat
	}
	if common.Kind == types.Double {
		return tDouble, tDouble
	}
	if anyDec {
		r := decimalArithType(op, decimalFor(t1), decimalFor(t2))
		return r, r
	}
	p := promotion(common)
	return p, p
}

func intOrBig(t types.Type) types.Type {
	if isIntegral(t.Kind) {
		return t
	}
	return tBigInt
}

func decimalArithType(op string, a, b types.Type) types.Type {
	p1, s1, p2, s2 := int(a.Precision), int(a.Scale), int(b.Precision), int(b.Scale)
	switch op {
	case "*":
		return tDecimal(p1+p2, s1+s2)
	case "%":
		s := max(s1, s2)
		return tDecimal(max(p1-s1, p2-s2)+s, s)
	}
	s := max(s1, s2)
	return tDecimal(max(p1-s1, p2-s2)+s+1, s)
}

// widerDecimal is DecimalV3Type.widerDecimalV3Type.
func widerDecimal(a, b types.Type) types.Type {
	s := max(int(a.Scale), int(b.Scale))
	r := max(int(a.Precision-a.Scale), int(b.Precision-b.Scale))
	return tDecimal(r+s, s)
}

// commonType finds the type two values are converted to when they meet in a
// comparison (forCompare) or in a CASE/IF/COALESCE result (strings win).
func commonType(a, b types.Type, forCompare bool) (types.Type, bool) {
	switch {
	case a == b:
		return a, true
	case a.Kind == types.Null:
		return b, true
	case b.Kind == types.Null:
		return a, true
	case a.Kind == types.Variant || b.Kind == types.Variant:
		return variantCommon(a, b, forCompare)
	case a.Nested != nil || b.Nested != nil:
		return nestedCommon(a, b, forCompare)
	}
	if !forCompare && (isString(a.Kind) || isString(b.Kind)) {
		return tString, true
	}
	if t, ok := ipCommon(a, b); ok {
		return t, true
	}
	if isDateLike(b.Kind) && !isDateLike(a.Kind) {
		a, b = b, a
	}
	if isDateLike(a.Kind) {
		return dateCommon(a, b)
	}
	if isFloat(b.Kind) && !isFloat(a.Kind) {
		a, b = b, a
	}
	if isFloat(a.Kind) {
		if b.Kind == types.Boolean || b.Kind == types.TinyInt || b.Kind == types.SmallInt || a.Kind == b.Kind {
			return a, true
		}
		return tDouble, isNumeric(b.Kind) || isString(b.Kind)
	}
	if isNumeric(b.Kind) && !isNumeric(a.Kind) {
		a, b = b, a
	}
	if isNumeric(a.Kind) {
		return numericCommon(a, b)
	}
	if isString(a.Kind) && isString(b.Kind) {
		if a.Kind == types.String || b.Kind == types.String {
			return tString, true
		}
		return types.Type{Kind: types.Varchar, Len: max(a.Len, b.Len)}, true
	}
	if a.Kind == types.Boolean && isString(b.Kind) || b.Kind == types.Boolean && isString(a.Kind) {
		return tBool, true
	}
	if a.Kind == types.JSON && isString(b.Kind) || b.Kind == types.JSON && isString(a.Kind) {
		return tJSON, true
	}
	return types.Type{}, false
}

func numericCommon(a, b types.Type) (types.Type, bool) {
	switch {
	case b.Kind == types.Boolean:
		if isIntegral(a.Kind) {
			return a, true
		}
		return widerDecimal(decimalFor(a), decimalFor(b)), true
	case isString(b.Kind), b.Kind == types.JSON:
		// Legacy comparison coercion: number against string compares as DOUBLE.
		return tDouble, true
	case isIntegral(a.Kind) && isIntegral(b.Kind):
		return higherRank(a, b), true
	case isNumeric(b.Kind):
		return widerDecimal(decimalFor(a), decimalFor(b)), true
	}
	return types.Type{}, false
}

func dateCommon(a, b types.Type) (types.Type, bool) {
	switch a.Kind {
	case types.Date:
		switch b.Kind {
		case types.Date, types.TinyInt, types.SmallInt:
			return tDate, true
		case types.DateTime:
			return b, true
		case types.TimestampTZ:
			return tDateTime(b.Scale), true
		}
		if isNumeric(b.Kind) || isString(b.Kind) {
			return tDateTime(6), true
		}
	case types.DateTime:
		switch {
		case b.Kind == types.Date:
			return a, true
		case b.Kind == types.DateTime, b.Kind == types.TimestampTZ:
			return tDateTime(max(a.Scale, b.Scale)), true
		case isIntegral(b.Kind):
			return a, true
		case isNumeric(b.Kind), isString(b.Kind):
			return tDateTime(6), true
		}
	case types.TimestampTZ:
		if b.Kind == types.TimestampTZ {
			return types.Type{Kind: types.TimestampTZ, Scale: max(a.Scale, b.Scale)}, true
		}
		return dateCommon(tDateTime(a.Scale), b)
	}
	return types.Type{}, false
}

// narrowIntLiteral gives an integer literal Doris's literal type: the
// smallest of TINYINT, SMALLINT, INT, BIGINT that holds it.
func narrowIntLiteral(v types.Value) types.Type {
	switch i := v.I; {
	case i >= -128 && i <= 127:
		return tTinyInt
	case i >= -32768 && i <= 32767:
		return tSmallInt
	case i >= -1<<31 && i <= 1<<31-1:
		return tInt
	}
	return tBigInt
}
