package expr

import (
	"fmt"
	"strings"

	"loadgw/types"
)

// AggState is the per-group state of an aggregate, made by AggFunc.NewState.
type AggState any

// AggFunc is an aggregate function bound to argument types. One AggFunc
// serves every group; the states are independent.
type AggFunc interface {
	// NewState returns an empty group state.
	NewState() AggState
	// Add folds one row's argument values (in call order; none for
	// COUNT(*)) into state.
	Add(state AggState, args []types.Value) error
	// Result is the aggregate of the rows added (Doris: NULL for an empty or
	// all-NULL group, except COUNT which is 0).
	Result(state AggState) types.Value
}

var aggArity = map[string][2]int{
	"count": {0, -1}, "sum": {1, 1}, "avg": {1, 1}, "min": {1, 1}, "max": {1, 1},
	"any_value": {1, 1}, "any": {1, 1}, "group_concat": {1, 2},
	"array_agg": {1, 1}, "collect_list": {1, 2}, "collect_set": {1, 2},
}

// IsAggregate reports whether name (lower case) is an aggregate function.
func IsAggregate(name string) bool {
	_, ok := aggArity[name]
	return ok
}

// NewAggregate binds an aggregate call to its argument types (the types of
// call.Args after Bind) and returns it with its result type.
func NewAggregate(call *Call, argTypes []types.Type) (AggFunc, types.Type, error) {
	ar, ok := aggArity[call.Name]
	if !ok {
		return nil, types.Type{}, errorf("Can not found function '%s'", call.Name)
	}
	if call.Star && call.Name != "count" {
		// As Doris's parser (LogicalPlanBuilder.processUnboundFunction).
		return nil, types.Type{}, errorf("'*' can only be used in conjunction with COUNT or JSON_OBJECT: %s", call.Name)
	}
	n := len(argTypes)
	// count() is count(*), as Doris's Count() constructor makes it.
	star := call.Star || (call.Name == "count" && n == 0 && !call.Distinct)
	if !star && (n < ar[0] || ar[1] >= 0 && n > ar[1] || call.Name == "count" && n == 0) {
		return nil, types.Type{}, arityError(call.Name, &funcDef{min: max(ar[0], 1), max: ar[1]}, n)
	}
	f, t, err := newAgg(call.Name, star, argTypes)
	if err != nil || !call.Distinct {
		return f, t, err
	}
	return &distinctAgg{inner: f}, t, nil
}

func newAgg(name string, star bool, at []types.Type) (AggFunc, types.Type, error) {
	switch name {
	case "count":
		return countAgg{star: star}, tBigInt, nil
	case "sum":
		t := sumType(at[0])
		return &sumAgg{t: t}, t, nil
	case "avg":
		t := tDouble
		if at[0].Kind == types.Decimal {
			t = tDecimal(38, max(int(at[0].Scale), 4))
		}
		return &avgAgg{sum: sumAgg{t: sumType(at[0])}, t: t}, t, nil
	case "min", "max":
		sign := 1
		if name == "min" {
			sign = -1
		}
		_, _, cmp := comparer(at[0], &constNode{t: at[0]}, &constNode{t: at[0]})
		return &extremeAgg{sign: sign, cmp: cmp}, at[0], nil
	case "any_value", "any":
		return anyAgg{}, at[0], nil
	case "group_concat":
		t := tVarchar
		if at[0].Kind == types.String {
			t = tString
		}
		return groupConcatAgg{}, t, nil
	case "array_agg", "collect_list", "collect_set":
		return newCollectAgg(name, at)
	}
	if f, t, ok := newObjectAgg(name, at); ok {
		return f, t, nil
	}
	if f, t, ok, err := newCombinatorAgg(name, at); ok {
		return f, t, err
	}
	return nil, types.Type{}, errorf("Can not found function '%s'", name)
}

func sumType(t types.Type) types.Type {
	switch {
	case t.Kind == types.LargeInt:
		return tLargeInt
	case isSmallInt(t.Kind), t.Kind == types.Boolean:
		return tBigInt
	case t.Kind == types.Decimal:
		return tDecimal(38, int(t.Scale))
	}
	return tDouble
}

type countAgg struct{ star bool }

type countState struct{ n int64 }

func (countAgg) NewState() AggState { return &countState{} }
func (a countAgg) Add(s AggState, args []types.Value) error {
	for _, v := range args {
		if v.Kind == types.Null {
			return nil
		}
	}
	s.(*countState).n++
	return nil
}
func (countAgg) Result(s AggState) types.Value { return types.NewInt(types.BigInt, s.(*countState).n) }

type sumAgg struct{ t types.Type }

type sumState struct {
	has bool
	i   int64
	l   types.Int128 // LARGEINT sum, wrapping modulo 2^128
	f   float64
	d   types.Int128 // DECIMAL sum unscaled at the result scale, wrapping
}

func (a *sumAgg) NewState() AggState { return &sumState{} }
func (a *sumAgg) Add(st AggState, args []types.Value) error {
	v := args[0]
	if v.Kind == types.Null {
		return nil
	}
	s := st.(*sumState)
	if a.t.Kind == types.Double && !isNumeric(v.Kind) {
		if v = castValue(v, tDouble, &Context{}); v.Kind == types.Null {
			return nil
		}
	}
	s.has = true
	switch a.t.Kind {
	case types.BigInt:
		s.i += v.I
	case types.LargeInt:
		x, _ := types.UnscaledOf(v)
		s.l, _ = s.l.Add(x) // wraps like C++ __int128
	case types.Decimal:
		if v.Kind == types.Decimal && v.Scale == a.t.Scale {
			s.d, _ = s.d.Add(types.Int128Of(v)) // wraps
			break
		}
		s.d, _ = s.d.Add(decimalTerm(v, int(a.t.Scale))) // wraps
	default:
		s.f += asFloat(v)
	}
	return nil
}

func (a *sumAgg) Result(st AggState) types.Value {
	s := st.(*sumState)
	if !s.has {
		return types.NullValue
	}
	switch a.t.Kind {
	case types.BigInt:
		return types.NewInt(types.BigInt, s.i)
	case types.LargeInt:
		return types.NewLargeInt(s.l)
	case types.Decimal:
		return types.NewDecimal(s.d, int(a.t.Scale))
	}
	return types.NewFloat(types.Double, s.f)
}

// decimalTerm is v's unscaled value at scale rs, the way SUM adds it: rounded
// half away from zero when v has more fraction digits, wrapping modulo 2^128
// when it has fewer and does not fit.
func decimalTerm(v types.Value, rs int) types.Int128 {
	x, sx := types.UnscaledOf(v)
	if sx < rs {
		return mulPow10Wrap(x, rs-sx)
	}
	x, _ = types.RescaleDecimal(x, sx, rs) // shrinking cannot overflow
	return x
}

type avgAgg struct {
	sum sumAgg
	t   types.Type
}

type avgState struct {
	sum sumState
	n   int64
}

func (a *avgAgg) NewState() AggState { return &avgState{} }
func (a *avgAgg) Add(st AggState, args []types.Value) error {
	if args[0].Kind == types.Null {
		return nil
	}
	s := st.(*avgState)
	s.n++
	return a.sum.Add(&s.sum, args)
}

func (a *avgAgg) Result(st AggState) types.Value {
	s := st.(*avgState)
	total := a.sum.Result(&s.sum)
	if total.Kind == types.Null {
		return total
	}
	if a.t.Kind == types.Decimal {
		return types.NewDecimal(avgDecimal(total, s.n, int(a.t.Scale)), int(a.t.Scale))
	}
	return types.NewFloat(types.Double, asFloat(total)/float64(s.n))
}

// avgDecimal is AVG of a DECIMAL as Doris's backend computes it
// (AggregateFunctionAvgData::result in aggregate_function_avg.h): the
// wrapping 128-bit sum is scaled up to the result scale rs, wrapping modulo
// 2^128, then divided by the count truncating toward zero. So an average
// is truncated, not rounded (TPC-H Q1's avg_qty 3774200.00/147790 is
// 25.5375 in Doris's nereids_tpch_p0 q1.out), and a sum whose scaled value
// passes 128 bits gives Doris's wrapped quotient.
// REQUIRES: n > 0, total is a DECIMAL with scale <= rs.
func avgDecimal(total types.Value, n int64, rs int) types.Int128 {
	x, sx := types.UnscaledOf(total)
	if sx != rs {
		x = mulPow10Wrap(x, rs-sx)
	}
	q, _, ok := x.QuoRem(types.FromInt64(n))
	if !ok {
		panic(fmt.Sprintf("BUG: AVG over %d rows", n))
	}
	return q
}

type extremeAgg struct {
	sign int
	cmp  func(a, b types.Value) int
}

type valueState struct {
	has bool
	v   types.Value
}

func (a *extremeAgg) NewState() AggState                        { return &valueState{} }
func (a *extremeAgg) Add(st AggState, args []types.Value) error { return a.Add1(st, args[0]) }
func (a *extremeAgg) Result(st AggState) types.Value            { return st.(*valueState).v }

type anyAgg struct{}

func (anyAgg) NewState() AggState { return &valueState{} }
func (anyAgg) Add(st AggState, args []types.Value) error {
	if s := st.(*valueState); !s.has && args[0].Kind != types.Null {
		s.has, s.v = true, args[0]
	}
	return nil
}
func (anyAgg) Result(st AggState) types.Value { return st.(*valueState).v }

type groupConcatAgg struct{}

type concatState struct {
	has bool
	sb  strings.Builder
}

func (groupConcatAgg) NewState() AggState { return &concatState{} }
func (groupConcatAgg) Add(st AggState, args []types.Value) error {
	if args[0].Kind == types.Null {
		return nil
	}
	s := st.(*concatState)
	if s.has {
		sep := ", "
		if len(args) > 1 && args[1].Kind != types.Null {
			sep = args[1].S
		}
		s.sb.WriteString(sep)
	}
	s.has = true
	v := args[0]
	if !isString(v.Kind) {
		v = types.NewString(types.Varchar, safeFormat(v))
	}
	if err := checkValueBytes(int64(s.sb.Len() + len(v.S))); err != nil {
		return err
	}
	s.sb.WriteString(v.S)
	return nil
}
func (groupConcatAgg) Result(st AggState) types.Value {
	s := st.(*concatState)
	if !s.has {
		return types.NullValue
	}
	return types.NewString(types.Varchar, s.sb.String())
}

// distinctAgg feeds the inner aggregate each distinct argument tuple once;
// tuples with a NULL are skipped (Doris's COUNT(DISTINCT a, b) rule).
type distinctAgg struct{ inner AggFunc }

type distinctState struct {
	seen  map[string]struct{}
	inner AggState
}

func (a *distinctAgg) NewState() AggState {
	return &distinctState{seen: map[string]struct{}{}, inner: a.inner.NewState()}
}

func (a *distinctAgg) Add(st AggState, args []types.Value) error {
	s := st.(*distinctState)
	var key strings.Builder
	for _, v := range args {
		if v.Kind == types.Null {
			return nil
		}
		key.WriteString(distinctKey(v))
		key.WriteByte(0)
	}
	k := key.String()
	if _, ok := s.seen[k]; ok {
		return nil
	}
	s.seen[k] = struct{}{}
	return a.inner.Add(s.inner, args)
}

func (a *distinctAgg) Result(st AggState) types.Value {
	return a.inner.Result(st.(*distinctState).inner)
}

// distinctKey encodes a value so that equal values (across integer kinds
// and decimal scales) get equal keys.
func distinctKey(v types.Value) string {
	switch {
	case isString(v.Kind):
		return "s" + v.S
	case isFloat(v.Kind):
		return "f" + sprintf("%v", v.F)
	case isNumeric(v.Kind):
		// DECIMALs without trailing fraction zeros, so that 1.50 = 1.5 and
		// 2.00 = 2 (the LARGEINT and integer key).
		x, s := types.UnscaledOf(v)
		for ten := types.FromInt64(10); s > 0; s-- {
			q, r, _ := x.QuoRem(ten)
			if !r.IsZero() {
				break
			}
			x = q
		}
		return "n" + types.FormatDecimal(x, s)
	}
	return sprintf("%d:%d:%d", v.Kind, v.I, v.Hi)
}
