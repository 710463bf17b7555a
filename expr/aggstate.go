package expr

import (
	"strings"

	"loadgw/types"
)

// Doris's aggregate-state combinators over AGG_STATE values (see
// types.AggStateType; the stored format is types.EncodeAggState):
//
//   - <agg>_state(args): scalar, the state of one row;
//   - <agg>_merge(state): aggregate, the final value of the states merged;
//   - <agg>_union(state): aggregate, the merged state.
//
// A state keeps the argument rows folded so far, reduced by the aggregate's
// own rule so that it stays small: SUM, MIN, MAX and the object unions keep
// one row (their result), COUNT and AVG a count (AVG also the sum),
// MAX_BY/MIN_BY the winning row, COLLECT_SET and MAP_AGG the distinct rows,
// GROUP_CONCAT, ARRAY_AGG and COLLECT_LIST every row. The final value runs
// the aggregate itself over those rows.

// reduceRule is how an aggregate's state rows reduce.
type reduceRule uint8

const (
	keepRows     reduceRule = iota // every row, in order
	foldRows                       // one row: the aggregate (via) over the rows
	countRows                      // no rows, only the count
	avgRows                        // the count, and one row: the sum
	extremeRow                     // max_by / min_by: the winning row
	firstRow                       // any_value: the first non-NULL row
	distinctRows                   // collect_set: the distinct rows
	distinctKeys                   // map_agg: the first row of each key
)

// combinable describes one aggregate that has AGG_STATE combinators.
type combinable struct {
	min, max int        // arity of <agg>_state
	rule     reduceRule //
	via      string     // foldRows: the aggregate that folds (default: itself)
	skipNull bool       // a row with a NULL argument adds nothing
	// toState, when set, turns an argument row into the state's row, and
	// final names the aggregate over those rows that gives the result
	// (ndv keeps an HLL sketch).
	toState func(row []types.Value) []types.Value
	final   string
}

var combinables = map[string]combinable{
	"sum":            {min: 1, max: 1, rule: foldRows, skipNull: true},
	"min":            {min: 1, max: 1, rule: foldRows, skipNull: true},
	"max":            {min: 1, max: 1, rule: foldRows, skipNull: true},
	"count":          {min: 1, max: 1, rule: countRows, skipNull: true},
	"avg":            {min: 1, max: 1, rule: avgRows, via: "sum", skipNull: true},
	"any_value":      {min: 1, max: 1, rule: firstRow, skipNull: true},
	"max_by":         {min: 2, max: 2, rule: extremeRow, skipNull: true},
	"min_by":         {min: 2, max: 2, rule: extremeRow, skipNull: true},
	"group_concat":   {min: 1, max: 2, rule: keepRows, skipNull: true},
	"array_agg":      {min: 1, max: 1, rule: keepRows},
	"collect_list":   {min: 1, max: 1, rule: keepRows, skipNull: true},
	"collect_set":    {min: 1, max: 1, rule: distinctRows, skipNull: true},
	"bitmap_union":   {min: 1, max: 1, rule: foldRows, skipNull: true},
	"hll_union":      {min: 1, max: 1, rule: foldRows, skipNull: true},
	"hll_raw_agg":    {min: 1, max: 1, rule: foldRows, via: "hll_union", skipNull: true},
	"hll_union_agg":  {min: 1, max: 1, rule: foldRows, via: "hll_union", skipNull: true},
	"quantile_union": {min: 1, max: 1, rule: foldRows, skipNull: true},
	"map_agg":        {min: 2, max: 2, rule: distinctKeys},
	"ndv": {min: 1, max: 1, rule: foldRows, via: "hll_union", skipNull: true,
		toState: ndvStateRow, final: "hll_union_agg"},
	"approx_count_distinct": {min: 1, max: 1, rule: foldRows, via: "hll_union", skipNull: true,
		toState: ndvStateRow, final: "hll_union_agg"},
}

// Doris's combinator suffixes (AGG_STATE_SUFFIX, AGG_MERGE_SUFFIX,
// AGG_UNION_SUFFIX).
const (
	stateSuffix = "_state"
	mergeSuffix = "_merge"
	unionSuffix = "_union"
)

// groupConcatStateSep is the separator of a one-argument group_concat run
// by the BE, as an AGG_STATE's is (AggregateFunctionGroupConcatImplStr).
const groupConcatStateSep = ","

func init() {
	for name, c := range combinables {
		aggArity[name+mergeSuffix] = [2]int{1, 1}
		aggArity[name+unionSuffix] = [2]int{1, 1}
		register(&funcDef{min: c.min, max: c.max, bind: bindStateCall}, name+stateSuffix)
	}
}

// IsAggState reports whether t is an AGG_STATE type.
func IsAggState(t types.Type) bool { return t.Kind == types.AggState }

// IsCombinable reports whether the aggregate name (lower case) has
// AGG_STATE combinators, so that AGG_STATE<name(...)> is a valid type.
func IsCombinable(name string) bool {
	_, ok := combinables[name]
	return ok
}

// CheckAggStateType checks that AGG_STATE<fn(args)> names an aggregate
// that takes those arguments.
func CheckAggStateType(t types.Type) error {
	st := t.State
	if _, ok := combinables[st.Func]; !ok {
		return errorf("Can not found function '%s'", st.Func)
	}
	_, _, err := newStateBase(st.Func, st.Args)
	return err
}

// newStateBase binds the aggregate itself to the argument types.
func newStateBase(name string, at []types.Type) (AggFunc, types.Type, error) {
	c := combinables[name]
	if len(at) < c.min || len(at) > c.max {
		return nil, types.Type{}, arityError(name, &funcDef{min: c.min, max: c.max}, len(at))
	}
	return newAgg(name, false, at)
}

// stateNode is <agg>_state(args).
type stateNode struct {
	name string
	c    combinable
	args []Compiled
	t    types.Type
}

func bindStateCall(name string, args []Compiled) (Compiled, error) {
	base := strings.TrimSuffix(name, stateSuffix)
	at := make([]types.Type, len(args))
	nullable := make([]bool, len(args))
	for i, a := range args {
		at[i] = a.Type()
		if at[i].Kind == types.Null {
			at[i] = types.Type{Kind: types.Int} // an untyped NULL argument
		}
		nullable[i] = true
	}
	if _, _, err := newStateBase(base, at); err != nil {
		return nil, err
	}
	return &stateNode{name: base, c: combinables[base], args: args, t: types.AggStateOf(base, at, nullable)}, nil
}

func (n *stateNode) Type() types.Type { return n.t }

// IsConst is false: a state call is never folded to a constant, so that
// CoerceAggState still finds its arguments to cast (they are folded).
func (n *stateNode) IsConst() bool { return false }

func (n *stateNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	vals := make([]types.Value, len(n.args))
	d := &types.AggStateData{}
	for i, a := range n.args {
		v, err := a.Eval(row, ctx)
		if err != nil {
			return types.NullValue, err
		}
		if v.IsNull() {
			d.NullArg = true
		}
		vals[i] = cloneValue(v)
	}
	if !d.NullArg || !n.c.skipNull {
		switch n.c.rule {
		case countRows:
			d.N = 1
		case avgRows:
			d.N, d.Rows = 1, [][]types.Value{vals}
		default:
			if n.c.toState != nil {
				vals = n.c.toState(vals)
			}
			d.Rows = [][]types.Value{vals}
		}
	}
	return types.Value{Kind: types.AggState, S: types.EncodeAggState(d)}, nil
}

// stateAcc folds states: rows newest first once reduced.
type stateAcc struct {
	d    types.AggStateData
	seen map[string]struct{} // distinctRows: the rows kept
}

// stateReducer reduces the rows of one aggregate's states.
type stateReducer struct {
	name string
	c    combinable
	at   []types.Type
	fold AggFunc // foldRows, avgRows: the aggregate that folds the rows
	cmp  func(a, b types.Value) int
}

func newStateReducer(st *types.AggStateType) (*stateReducer, error) {
	c, ok := combinables[st.Func]
	if !ok {
		return nil, errorf("Can not found function '%s'", st.Func)
	}
	r := &stateReducer{name: st.Func, c: c, at: st.Args}
	switch c.rule {
	case foldRows, avgRows:
		via := c.via
		if via == "" {
			via = st.Func
		}
		f, _, err := newAgg(via, false, st.Args[:1])
		if err != nil {
			return nil, err
		}
		r.fold = f
	case extremeRow:
		_, _, r.cmp = comparer(st.Args[1], &constNode{t: st.Args[1]}, &constNode{t: st.Args[1]})
	}
	return r, nil
}

// add folds state d into acc, d's rows after acc's.
func (r *stateReducer) add(acc *stateAcc, d *types.AggStateData) error {
	acc.d.NullArg = acc.d.NullArg || d.NullArg
	acc.d.N += d.N
	switch r.c.rule {
	case countRows:
		return nil
	case distinctRows, distinctKeys:
		for _, row := range d.Rows {
			k := rowKey(row)
			if r.c.rule == distinctKeys {
				k = rowKey(row[:1])
			}
			if _, dup := acc.seen[k]; dup {
				continue
			}
			if acc.seen == nil {
				acc.seen = map[string]struct{}{}
			}
			acc.seen[k] = struct{}{}
			acc.d.Rows = append(acc.d.Rows, row)
		}
		return nil
	case firstRow:
		if len(acc.d.Rows) == 0 && len(d.Rows) > 0 {
			acc.d.Rows = d.Rows[:1]
		}
		return nil
	case extremeRow:
		for _, row := range d.Rows {
			if len(acc.d.Rows) == 0 || r.cmp(row[1], acc.d.Rows[0][1])*r.sign() > 0 {
				acc.d.Rows = [][]types.Value{row}
			}
		}
		return nil
	case foldRows, avgRows:
		if len(d.Rows) == 0 {
			return nil
		}
		st := r.fold.NewState()
		for _, rows := range [][][]types.Value{acc.d.Rows, d.Rows} {
			for _, row := range rows {
				if err := r.fold.Add(st, row[:1]); err != nil {
					return err
				}
			}
		}
		acc.d.Rows = nil
		if v := r.fold.Result(st); !v.IsNull() {
			acc.d.Rows = [][]types.Value{{v}}
		}
		return nil
	}
	acc.d.Rows = append(acc.d.Rows, d.Rows...)
	return nil
}

func (r *stateReducer) sign() int {
	if r.name == "min_by" {
		return -1
	}
	return 1
}

// rowKey identifies a row for distinctRows.
func rowKey(row []types.Value) string {
	var b strings.Builder
	for _, v := range row {
		b.WriteString(valueKey(v))
		b.WriteByte(0)
	}
	return b.String()
}

// final runs the aggregate itself over the reduced state.
func (r *stateReducer) final(acc *stateAcc) (types.Value, error) {
	base, _, err := newStateBase(r.name, r.at)
	if r.c.final != "" {
		base, _, err = newAgg(r.c.final, false, []types.Type{tHLL})
	}
	if err != nil {
		return types.NullValue, err
	}
	switch r.c.rule {
	case countRows:
		return types.NewInt(types.BigInt, acc.d.N), nil
	case avgRows:
		a := base.(*avgAgg)
		s := &avgState{n: acc.d.N}
		for _, row := range acc.d.Rows {
			if err := a.sum.Add(&s.sum, row[:1]); err != nil {
				return types.NullValue, err
			}
		}
		return a.Result(s), nil
	}
	st := base.NewState()
	for _, row := range acc.d.Rows {
		if r.name == "group_concat" && len(row) == 1 {
			row = []types.Value{row[0], types.NewString(types.Varchar, groupConcatStateSep)}
		}
		if err := base.Add(st, row); err != nil {
			return types.NullValue, err
		}
	}
	return base.Result(st), nil
}

// MergeAggState merges a newer state into an older one of an AGG_STATE
// column of type t (an Aggregate Key table's GENERIC column): the newer
// rows come first, as Doris shows them.
func MergeAggState(t types.Type, older, newer types.Value) (types.Value, error) {
	switch {
	case older.IsNull():
		return newer, nil
	case newer.IsNull():
		return older, nil
	}
	r, err := newStateReducer(t.State)
	if err != nil {
		return types.NullValue, err
	}
	acc := &stateAcc{}
	for _, v := range []types.Value{newer, older} {
		d, err := types.DecodeAggState(v.S)
		if err != nil {
			return types.NullValue, err
		}
		if err := r.add(acc, d); err != nil {
			return types.NullValue, err
		}
	}
	return types.Value{Kind: types.AggState, S: types.EncodeAggState(&acc.d)}, nil
}

// combAgg is <agg>_merge (final) and <agg>_union (union).
type combAgg struct {
	r     *stateReducer
	union bool
}

// newCombinatorAgg binds <agg>_merge and <agg>_union; ok is false for any
// other name.
func newCombinatorAgg(name string, at []types.Type) (f AggFunc, t types.Type, ok bool, err error) {
	base, union := "", false
	switch {
	case strings.HasSuffix(name, mergeSuffix):
		base = strings.TrimSuffix(name, mergeSuffix)
	case strings.HasSuffix(name, unionSuffix):
		base, union = strings.TrimSuffix(name, unionSuffix), true
	}
	if _, known := combinables[base]; !known || len(at) != 1 {
		return nil, types.Type{}, false, nil
	}
	if at[0].Kind != types.AggState || at[0].State == nil {
		return nil, types.Type{}, true, errorf("Agg state function input type must be agg_state but get %s",
			types.NereidsName(at[0]))
	}
	if at[0].State.Func != base {
		return nil, types.Type{}, true, errorf("%s not match function %s", aggStateBEName(at[0].State), name)
	}
	r, err := newStateReducer(at[0].State)
	if err != nil {
		return nil, types.Type{}, true, err
	}
	if union {
		return &combAgg{r: r, union: true}, at[0], true, nil
	}
	_, rt, err := newStateBase(base, at[0].State.Args)
	if err != nil {
		return nil, types.Type{}, true, err
	}
	return &combAgg{r: r}, rt, true, nil
}

// aggStateBEName is the BE's DataTypeAggState name of a state type.
func aggStateBEName(st *types.AggStateType) string {
	args := make([]string, len(st.Args))
	for i, t := range st.Args {
		args[i] = types.BEName(t)
		if st.Nullable[i] {
			args[i] = "Nullable(" + args[i] + ")"
		}
	}
	return "AggState(function_name=" + st.Func + ",arguments=[" + strings.Join(args, ", ") + "])"
}

func (a *combAgg) NewState() AggState { return &stateAcc{} }

func (a *combAgg) Add(st AggState, args []types.Value) error {
	if args[0].IsNull() {
		return nil
	}
	d, err := types.DecodeAggState(args[0].S)
	if err != nil {
		return err
	}
	return a.r.add(st.(*stateAcc), d)
}

func (a *combAgg) Result(st AggState) types.Value {
	acc := st.(*stateAcc)
	if a.union {
		return types.Value{Kind: types.AggState, S: types.EncodeAggState(&acc.d)}
	}
	v, err := a.r.final(acc)
	if err != nil {
		// The aggregate was bound to these argument types when the call was.
		panic("BUG: cannot finish " + a.r.name + mergeSuffix + ": " + err.Error())
	}
	return v
}

// CoerceAggState adapts an expression bound for a column of AGG_STATE type
// t: an <agg>_state(args) call of the same aggregate takes the column's
// argument types, as Doris's planner casts the arguments to the declared
// signature (a stream load's input fields are text). Anything else is
// returned as it is.
func CoerceAggState(c Compiled, t types.Type) Compiled {
	n, ok := c.(*stateNode)
	if !ok || t.Kind != types.AggState || t.State == nil || n.name != t.State.Func || len(n.args) != len(t.State.Args) {
		return c
	}
	args := make([]Compiled, len(n.args))
	for i, a := range n.args {
		args[i] = castTo(a, t.State.Args[i])
	}
	return &stateNode{name: n.name, c: n.c, args: args, t: t}
}
