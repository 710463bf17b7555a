package expr

import "loadgw/types"

// AggFunc1 is implemented by the aggregates of one argument that can take
// it as a value, without an argument slice: the hot path of hash
// aggregation. Add1(s, v) is Add(s, []types.Value{v}).
type AggFunc1 interface {
	AggFunc
	Add1(state AggState, v types.Value) error
}

var (
	_ AggFunc1 = (*sumAgg)(nil)
	_ AggFunc1 = (*avgAgg)(nil)
	_ AggFunc1 = countAgg{}
	_ AggFunc1 = (*extremeAgg)(nil)
)

// One returns f as an AggFunc1 when it takes its one argument by value
// (COUNT(*) takes none and is not one).
func One(f AggFunc, args int) (AggFunc1, bool) {
	if args != 1 {
		return nil, false
	}
	f1, ok := f.(AggFunc1)
	return f1, ok
}

func (a *sumAgg) Add1(st AggState, v types.Value) error {
	if v.Kind == types.Null {
		return nil
	}
	s := st.(*sumState)
	if a.t.Kind == types.Decimal && v.Kind == types.Decimal && v.Scale == a.t.Scale {
		s.has = true
		s.d, _ = s.d.Add(types.Int128Of(v)) // wraps
		return nil
	}
	return a.Add(st, []types.Value{v})
}

func (a *avgAgg) Add1(st AggState, v types.Value) error {
	if v.Kind == types.Null {
		return nil
	}
	s := st.(*avgState)
	s.n++
	return a.sum.Add1(&s.sum, v)
}

func (countAgg) Add1(st AggState, v types.Value) error {
	if v.Kind != types.Null {
		st.(*countState).n++
	}
	return nil
}

func (a *extremeAgg) Add1(st AggState, v types.Value) error {
	if v.Kind == types.Null {
		return nil
	}
	s := st.(*valueState)
	if !s.has || a.cmp(v, s.v)*a.sign > 0 {
		s.has, s.v = true, v
	}
	return nil
}

// SlotOf reports the row slot c reads when c is a plain column
// reference, so a caller on a hot path can read the slot in place.
func SlotOf(c Compiled) (int, bool) {
	if n, ok := c.(*colNode); ok {
		return n.idx, true
	}
	return 0, false
}
