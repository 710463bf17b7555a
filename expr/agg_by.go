package expr

import "loadgw/types"

// byAgg is max_by(v, k) and min_by(v, k): the v of the row whose k is the
// greatest (least). A row with a NULL argument is skipped, as Doris's
// variadic NULL wrapper skips it; of equal keys the first row wins.
type byAgg struct {
	sign int
	cmp  func(a, b types.Value) int
}

type byState struct {
	has bool
	row [2]types.Value
}

func newByAgg(name string, at []types.Type) (AggFunc, types.Type) {
	sign := 1
	if name == "min_by" {
		sign = -1
	}
	_, _, cmp := comparer(at[1], &constNode{t: at[1]}, &constNode{t: at[1]})
	return &byAgg{sign: sign, cmp: cmp}, at[0]
}

func (a *byAgg) NewState() AggState { return &byState{} }

func (a *byAgg) Add(st AggState, args []types.Value) error {
	if args[0].IsNull() || args[1].IsNull() {
		return nil
	}
	s := st.(*byState)
	if !s.has || a.cmp(args[1], s.row[1])*a.sign > 0 {
		s.has = true
		s.row = [2]types.Value{cloneValue(args[0]), cloneValue(args[1])}
	}
	return nil
}

func (a *byAgg) Result(st AggState) types.Value { return st.(*byState).row[0] }

// cloneValue copies the string a value may hold out of a reused buffer.
func cloneValue(v types.Value) types.Value {
	if v.S != "" {
		v.S = cloneString(v.S)
	}
	return v
}

func init() {
	for _, n := range []string{"max_by", "min_by"} {
		aggArity[n] = [2]int{2, 2}
		objectAggs[n] = func(at []types.Type) (AggFunc, types.Type) { return newByAgg(n, at) }
	}
}
