package expr

import "loadgw/types"

// AggColumn holds the states of one aggregate call for the groups of one
// hash aggregation, numbered 0, 1, ... in the order Grow made them. The
// common aggregates (COUNT, SUM, AVG, MIN, MAX) keep their states in typed
// slices (an int128 and a flag per group for a DECIMAL SUM) instead of a
// heap object per group behind an interface: fewer bytes per group and no
// pointer chasing per row. Every column computes exactly what its AggFunc
// computes: whatever its typed path does not cover is handed to the
// AggFunc on a copy of the group's state.
type AggColumn interface {
	// Grow appends the empty state of the next group.
	Grow()
	// Add folds one row's argument values into group g (AggFunc.Add).
	Add(g int32, args []types.Value) error
	// Add1 folds one argument value into group g (AggFunc1.Add1).
	// REQUIRES: the AggFunc takes one argument by value (One).
	Add1(g int32, v *types.Value) error
	// Result is group g's aggregate (AggFunc.Result).
	Result(g int32) types.Value
	// StateBytes estimates the memory of one group's state.
	StateBytes() int64
}

// NewAggColumn returns the state column of f.
func NewAggColumn(f AggFunc) AggColumn {
	switch f := f.(type) {
	case countAgg:
		return &countColumn{star: f.star}
	case *sumAgg:
		return &sumColumn{a: f}
	case *avgAgg:
		return &avgColumn{a: f, sum: sumColumn{a: &f.sum}}
	case *extremeAgg:
		return &extremeColumn{a: f}
	}
	c := &stateColumn{f: f}
	c.one, _ = f.(AggFunc1)
	return c
}

// genericStateBytes estimates a state behind an interface (its pointer,
// its heap object).
const genericStateBytes = 64

// stateColumn is the column of any AggFunc: one state object per group.
type stateColumn struct {
	f      AggFunc
	one    AggFunc1
	states []AggState
}

func (c *stateColumn) Grow() { c.states = append(c.states, c.f.NewState()) }
func (c *stateColumn) Add(g int32, args []types.Value) error {
	return c.f.Add(c.states[g], args)
}
func (c *stateColumn) Add1(g int32, v *types.Value) error { return c.one.Add1(c.states[g], *v) }
func (c *stateColumn) Result(g int32) types.Value         { return c.f.Result(c.states[g]) }
func (c *stateColumn) StateBytes() int64                  { return genericStateBytes }

// countColumn is COUNT(*) and COUNT(x, ...).
type countColumn struct {
	star bool
	n    []int64
}

func (c *countColumn) Grow() { c.n = append(c.n, 0) }
func (c *countColumn) Add(g int32, args []types.Value) error {
	for i := range args {
		if args[i].Kind == types.Null {
			return nil
		}
	}
	c.n[g]++
	return nil
}
func (c *countColumn) Add1(g int32, v *types.Value) error {
	if v.Kind != types.Null {
		c.n[g]++
	}
	return nil
}
func (c *countColumn) Result(g int32) types.Value { return types.NewInt(types.BigInt, c.n[g]) }
func (c *countColumn) StateBytes() int64          { return 8 }

// sumColumn is SUM: per group a flag and the running sum in the slice of
// the result type (int64 for BIGINT, int128 for DECIMAL and LARGEINT,
// float64 for DOUBLE).
type sumColumn struct {
	a   *sumAgg
	has []bool
	i   []int64
	d   []types.Int128
	f   []float64
}

func (c *sumColumn) Grow() {
	c.has = append(c.has, false)
	switch c.a.t.Kind {
	case types.BigInt:
		c.i = append(c.i, 0)
	case types.Decimal, types.LargeInt:
		c.d = append(c.d, types.Int128{})
	default:
		c.f = append(c.f, 0)
	}
}

func (c *sumColumn) Add(g int32, args []types.Value) error { return c.Add1(g, &args[0]) }

func (c *sumColumn) Add1(g int32, v *types.Value) error {
	switch {
	case v.Kind == types.Null:
		return nil
	case c.a.t.Kind == types.Decimal && v.Kind == types.Decimal && v.Scale == c.a.t.Scale:
		c.d[g], _ = c.d[g].Add(types.Int128Of(*v)) // wraps
	case c.a.t.Kind == types.BigInt:
		c.i[g] += v.I
	case c.a.t.Kind == types.Double && isFloat(v.Kind):
		c.f[g] += v.F
	default:
		s := c.state(g)
		if err := c.a.Add(&s, []types.Value{*v}); err != nil {
			return err
		}
		c.set(g, s)
		return nil
	}
	c.has[g] = true
	return nil
}

// state returns group g's sum as a sumState.
func (c *sumColumn) state(g int32) sumState {
	s := sumState{has: c.has[g]}
	switch c.a.t.Kind {
	case types.BigInt:
		s.i = c.i[g]
	case types.Decimal:
		s.d = c.d[g]
	case types.LargeInt:
		s.l = c.d[g]
	default:
		s.f = c.f[g]
	}
	return s
}

// set stores s as group g's sum.
func (c *sumColumn) set(g int32, s sumState) {
	c.has[g] = s.has
	switch c.a.t.Kind {
	case types.BigInt:
		c.i[g] = s.i
	case types.Decimal:
		c.d[g] = s.d
	case types.LargeInt:
		c.d[g] = s.l
	default:
		c.f[g] = s.f
	}
}

func (c *sumColumn) Result(g int32) types.Value {
	s := c.state(g)
	return c.a.Result(&s)
}

func (c *sumColumn) StateBytes() int64 {
	switch c.a.t.Kind {
	case types.Decimal, types.LargeInt:
		return 17
	}
	return 9
}

// avgColumn is AVG: a sum column and a count per group.
type avgColumn struct {
	a   *avgAgg
	sum sumColumn
	n   []int64
}

func (c *avgColumn) Grow() {
	c.sum.Grow()
	c.n = append(c.n, 0)
}
func (c *avgColumn) Add(g int32, args []types.Value) error { return c.Add1(g, &args[0]) }
func (c *avgColumn) Add1(g int32, v *types.Value) error {
	if v.Kind == types.Null {
		return nil
	}
	c.n[g]++
	return c.sum.Add1(g, v)
}
func (c *avgColumn) Result(g int32) types.Value {
	s := avgState{sum: c.sum.state(g), n: c.n[g]}
	return c.a.Result(&s)
}
func (c *avgColumn) StateBytes() int64 { return c.sum.StateBytes() + 8 }

// extremeColumn is MIN and MAX.
type extremeColumn struct {
	a      *extremeAgg
	states []valueState
}

func (c *extremeColumn) Grow() { c.states = append(c.states, valueState{}) }
func (c *extremeColumn) Add(g int32, args []types.Value) error {
	return c.Add1(g, &args[0])
}
func (c *extremeColumn) Add1(g int32, v *types.Value) error {
	if v.Kind == types.Null {
		return nil
	}
	s := &c.states[g]
	if !s.has || c.a.cmp(*v, s.v)*c.a.sign > 0 {
		s.has, s.v = true, *v
	}
	return nil
}
func (c *extremeColumn) Result(g int32) types.Value { return c.states[g].v }
func (c *extremeColumn) StateBytes() int64          { return 56 }
