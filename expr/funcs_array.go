package expr

import (
	"sort"
	"strings"

	"loadgw/types"
)

// The array_* and map_* function families (Doris's BuiltinScalarFunctions
// names). A NULL ARRAY or MAP argument gives NULL.

func init() {
	register(&funcDef{min: 1, max: 1, bind: bindCardinality}, "array_size", "cardinality", "size")
	register(&funcDef{min: 1, max: 1, bind: bindMapUnary}, "map_size", "map_keys", "map_values", "map_entries")
	register(&funcDef{min: 2, max: 2, bind: bindArraySearch}, "array_contains", "array_position")
	register(&funcDef{min: 1, max: 1, bind: bindArrayUnary}, "array_distinct",
		"array_max", "array_min", "array_sum", "array_avg")
	register(&funcDef{min: 2, max: 3, bind: bindArrayJoin}, "array_join")
	register(&funcDef{min: 2, max: -1, bind: bindArraySet}, "array_union", "array_intersect", "array_except")
	register(&funcDef{min: 2, max: 3, bind: bindArraySlice}, "array_slice")
	register(&funcDef{min: 2, max: 2, bind: bindMapContains}, "map_contains_key", "map_contains_value")
	register(&funcDef{min: 3, max: 3, bind: bindMapContains}, "map_contains_entry")
}

func noSignature(name string, args []Compiled) error {
	return errorf("Can not find the compatibility function signature: %s", callSQLTypes(name, args))
}

// decodeArg decodes a nested argument; ok is false for NULL.
func decodeArg(v types.Value) (types.Nested, bool, error) {
	if v.IsNull() {
		return types.Nested{}, false, nil
	}
	n, err := types.Decode(v)
	return n, err == nil, err
}

// decodeEqualArrays decodes array arguments that must have as many
// elements as the first; a NULL one gives ok false and no error, and the
// first of another length the error unequal makes of its index.
func decodeEqualArrays(v []types.Value, unequal func(i int) error) (arrs []types.Nested, ok bool, err error) {
	arrs = make([]types.Nested, len(v))
	for i, a := range v {
		n, ok, err := decodeArg(a)
		if !ok {
			return nil, false, err
		}
		if i > 0 && len(n.Elems) != len(arrs[0].Elems) {
			return nil, false, unequal(i)
		}
		arrs[i] = n
	}
	return arrs, true, nil
}

// arrayFn binds a kernel over one decoded ARRAY (or MAP) first argument.
// A NULL-typed first argument (a NULL literal) folds to NULL.
func arrayFn(name string, args []Compiled, t types.Type, fn func(ctx *Context, n types.Nested, rest []types.Value) (types.Value, error)) Compiled {
	if args[0].Type().Kind == types.Null {
		return &constNode{v: types.NullValue, t: t}
	}
	return nestedNode(name, args, t, func(ctx *Context, v []types.Value) (types.Value, error) {
		n, ok, err := decodeArg(v[0])
		if !ok {
			return types.NullValue, err
		}
		return fn(ctx, n, v[1:])
	})
}

func bindCardinality(name string, args []Compiled) (Compiled, error) {
	if k := args[0].Type().Kind; k != types.Array && k != types.Map && k != types.Null {
		return nil, noSignature(name, args)
	}
	return arrayFn(name, args, tBigInt, func(_ *Context, n types.Nested, _ []types.Value) (types.Value, error) {
		return types.NewInt(types.BigInt, int64(n.Len())), nil
	}), nil
}

func bindMapUnary(name string, args []Compiled) (Compiled, error) {
	mt := args[0].Type()
	if mt.Kind == types.Null {
		mt = types.MapOf(tNull, tNull)
	}
	if mt.Kind != types.Map {
		return nil, noSignature(name, args)
	}
	kt, vt := mt.Nested.Elem, mt.Nested.Value
	switch name {
	case "map_size":
		return bindCardinality(name, args)
	case "map_keys", "map_values":
		off, et := 0, kt
		if name == "map_values" {
			off, et = 1, vt
		}
		at := types.ArrayOf(et, false)
		return arrayFn(name, args, at, func(_ *Context, n types.Nested, _ []types.Value) (types.Value, error) {
			out := types.Nested{Type: at, Elems: make([]types.Value, 0, n.Len())}
			for i := off; i < len(n.Elems); i += 2 {
				out.Elems = append(out.Elems, n.Elems[i])
			}
			return out.Encode(), nil
		}), nil
	}
	st := types.StructOf([]types.StructField{{Name: "key", Type: kt}, {Name: "value", Type: vt}})
	at := types.ArrayOf(st, false)
	return arrayFn(name, args, at, func(_ *Context, n types.Nested, _ []types.Value) (types.Value, error) {
		out := types.Nested{Type: at, Elems: make([]types.Value, 0, n.Len())}
		for i := 0; i < len(n.Elems); i += 2 {
			out.Elems = append(out.Elems, types.Nested{Type: st, Elems: n.Elems[i : i+2]}.Encode())
		}
		return out.Encode(), nil
	}), nil
}

// bindArraySearch binds array_contains (BOOLEAN) and array_position
// (BIGINT, 1-based, 0 when absent); a NULL needle finds a NULL element.
func bindArraySearch(name string, args []Compiled) (Compiled, error) {
	if err := bindNeedle(name, args); err != nil {
		return nil, err
	}
	t := tBool
	if name == "array_position" {
		t = tBigInt
	}
	return arrayFn(name, args, t, func(_ *Context, n types.Nested, rest []types.Value) (types.Value, error) {
		pos := int64(0)
		for i, e := range n.Elems {
			if sameElem(e, rest[0]) {
				pos = int64(i + 1)
				break
			}
		}
		if name == "array_position" {
			return types.NewInt(types.BigInt, pos), nil
		}
		return types.NewBool(pos > 0), nil
	}), nil
}

func bindArrayUnary(name string, args []Compiled) (Compiled, error) {
	et, null, err := arrayOperand(name, args)
	if null != nil || err != nil {
		return null, err
	}
	at := args[0].Type()
	switch name {
	case "array_sort":
		return arrayFn(name, args, at, func(_ *Context, n types.Nested, _ []types.Value) (types.Value, error) {
			sort.SliceStable(n.Elems, func(i, j int) bool { return types.Compare(n.Elems[i], n.Elems[j]) < 0 })
			return n.Encode(), nil
		}), nil
	case "array_distinct":
		return arrayFn(name, args, at, func(_ *Context, n types.Nested, _ []types.Value) (types.Value, error) {
			n.Elems = distinctElems(n.Elems, nil)
			return n.Encode(), nil
		}), nil
	case "array_max", "array_min":
		if types.IsNested(et.Kind) {
			return nil, errorf("%s does not support complex types: %s", name, callSQL(name, args))
		}
		sign := 1
		if name == "array_min" {
			sign = -1
		}
		return arrayFn(name, args, et, func(_ *Context, n types.Nested, _ []types.Value) (types.Value, error) {
			best := types.NullValue
			for _, e := range n.Elems {
				if !e.IsNull() && (best.IsNull() || sign*types.Compare(e, best) > 0) {
					best = e
				}
			}
			return best, nil
		}), nil
	}
	return bindArraySum(name, args, et)
}

// bindArraySum binds array_sum and array_avg with Doris's signatures:
// integers sum to BIGINT (LARGEINT to LARGEINT), FLOAT and DOUBLE to
// DOUBLE, DECIMAL to DECIMAL(38, s); the average is DOUBLE except for
// DECIMAL, whose scale is at least minAvgDecimalScale (the quotient
// truncated). NULL elements are skipped; no element gives NULL.
func bindArraySum(name string, args []Compiled, et types.Type) (Compiled, error) {
	if et.Kind == types.Null { // [] or [NULL]: Doris's first signature, ARRAY<DOUBLE>
		et = tDouble
		args[0] = convert(args[0], types.ArrayOf(et, false))
	}
	if !isNumeric(et.Kind) && et.Kind != types.Boolean {
		return nil, noSignature(name, args)
	}
	st := sumType(et)
	t := st
	if name == "array_avg" {
		if st.Kind != types.Decimal {
			t = tDouble
		} else if st.Scale < minAvgDecimalScale {
			t = tDecimal(38, minAvgDecimalScale)
		}
	}
	return arrayFn(name, args, t, func(ctx *Context, n types.Nested, _ []types.Value) (types.Value, error) {
		agg := &sumAgg{t: st}
		s := agg.NewState()
		cnt := 0
		for _, e := range n.Elems {
			if !e.IsNull() {
				cnt++
				if err := agg.Add(s, []types.Value{e}); err != nil {
					return types.NullValue, err
				}
			}
		}
		sum := agg.Result(s)
		if name == "array_sum" || sum.IsNull() {
			return sum, nil
		}
		if t.Kind == types.Decimal {
			num, ok := types.Int128Of(sum).Mul(types.Pow10(int(t.Scale - st.Scale)))
			if !ok {
				return types.NullValue, nil
			}
			q, ok := num.Quo(types.FromInt64(int64(cnt)))
			if !ok {
				return types.NullValue, nil
			}
			return types.NewDecimal(q, int(t.Scale)), nil
		}
		return types.NewFloat(types.Double, types.ToFloat64(sum)/float64(cnt)), nil
	}), nil
}

// minAvgDecimalScale is Doris's ScalarType.DEFAULT_MIN_AVG_DECIMAL128_SCALE:
// array_avg of a DECIMAL with a smaller scale returns this scale.
const minAvgDecimalScale = 4

// distinctElems keeps the first occurrence of each element (NULL once),
// leaving out those in skip.
func distinctElems(elems []types.Value, skip map[string]bool) []types.Value {
	seen := map[string]bool{}
	out := elems[:0:0]
	for _, e := range elems {
		k := valueKey(e)
		if seen[k] || skip[k] {
			continue
		}
		seen[k] = true
		out = append(out, e)
	}
	return out
}

func bindArrayJoin(name string, args []Compiled) (Compiled, error) {
	if args[0].Type().Kind != types.Array {
		return nil, noSignature(name, args)
	}
	for i := 1; i < len(args); i++ {
		args[i] = convertArg(args[i], aStr)
	}
	args[0] = convert(args[0], types.ArrayOf(tString, false))
	return arrayFn(name, args, tString, func(ctx *Context, n types.Nested, rest []types.Value) (types.Value, error) {
		if rest[0].IsNull() || len(rest) == 2 && rest[1].IsNull() {
			return types.NullValue, nil
		}
		var b strings.Builder
		first := true
		for _, e := range n.Elems {
			s := e.S
			if e.IsNull() {
				if len(rest) < 2 {
					continue
				}
				s = rest[1].S
			}
			if !first {
				b.WriteString(rest[0].S)
			}
			first = false
			b.WriteString(s)
		}
		return types.NewString(types.String, b.String()), nil
	}), nil
}

// bindArraySet binds array_union and array_intersect (two arrays or
// more) and array_except (two). array_except keeps the left array's order
// (NULL in place); union and intersect put a NULL element first and the
// others in Doris's hash-table order where dorisSetOrder reproduces it,
// else in order of first appearance. A NULL array gives NULL.
func bindArraySet(name string, args []Compiled) (Compiled, error) {
	if name == "array_except" && len(args) != 2 {
		return nil, errorf("Can not found function '%s' which has %d arity. Candidate functions are: [%s(Expression, Expression)]", name, len(args), name)
	}
	if name == "array_intersect" { // Doris's ArrayIntersect legality check
		for _, a := range args {
			at := a.Type()
			if at.Kind != types.Null && (at.Kind != types.Array || types.IsNested(at.Nested.Elem.Kind)) {
				return nil, errorf("array_intersect does not support complex types: %s", callSQL(name, args))
			}
		}
	}
	t := args[0].Type()
	for _, a := range args[1:] {
		ct, ok := commonType(t, a.Type(), false)
		if !ok {
			return nil, noSignature(name, args)
		}
		t = ct
	}
	if t.Kind != types.Array {
		return nil, noSignature(name, args)
	}
	for i := range args {
		args[i] = convert(args[i], t)
	}
	return nestedNode(name, args, t, func(_ *Context, v []types.Value) (types.Value, error) {
		arrs := make([]types.Nested, len(v))
		null := false
		for i, a := range v {
			n, ok, err := decodeArg(a)
			if err != nil {
				return types.NullValue, err
			}
			null = null || !ok
			arrs[i] = n
		}
		if null {
			return types.NullValue, nil
		}
		out := types.Nested{Type: t}
		if name == "array_except" { // Doris's ArraySetImpl: the left array's order, NULL in place
			out.Elems = distinctElems(arrs[0].Elems, keySet(arrs[1].Elems))
			return out.Encode(), nil
		}
		if phmapOrderable(t.Nested.Elem) {
			out.Elems = dorisSetOrder(name, arrs)
			return out.Encode(), nil
		}
		switch name {
		case "array_union":
			var all []types.Value
			for _, n := range arrs {
				all = append(all, n.Elems...)
			}
			out.Elems = distinctElems(all, nil)
		default:
			out.Elems = distinctElems(arrs[0].Elems, nil)
			for _, n := range arrs[1:] {
				in := keySet(n.Elems)
				kept := out.Elems[:0]
				for _, e := range out.Elems {
					if in[valueKey(e)] {
						kept = append(kept, e)
					}
				}
				out.Elems = kept
			}
		}
		nullFirst(out.Elems)
		return out.Encode(), nil
	}), nil
}

// nullFirst moves the one NULL of distinct elements to the front.
func nullFirst(elems []types.Value) {
	for i, e := range elems {
		if e.IsNull() {
			copy(elems[1:i+1], elems[:i])
			elems[0] = e
			return
		}
	}
}

func keySet(elems []types.Value) map[string]bool {
	m := make(map[string]bool, len(elems))
	for _, e := range elems {
		m[valueKey(e)] = true
	}
	return m
}

// bindArraySlice binds array_slice(arr, offset [, length]): offset is
// 1-based, negative counts from the end; without length to the end.
func bindArraySlice(name string, args []Compiled) (Compiled, error) {
	t := args[0].Type()
	if t.Kind != types.Array {
		return nil, noSignature(name, args)
	}
	for i := 1; i < len(args); i++ {
		args[i] = convertArg(args[i], aInt)
	}
	return arrayFn(name, args, t, func(_ *Context, n types.Nested, rest []types.Value) (types.Value, error) {
		for _, r := range rest {
			if r.IsNull() {
				return types.NullValue, nil
			}
		}
		size := int64(len(n.Elems))
		off := rest[0].I
		switch {
		case off > 0:
			off--
		case off < 0:
			off += size
		default:
			off = size // offset 0 gives an empty array
		}
		if off < 0 || off > size {
			off = size
		}
		end := size
		if len(rest) == 2 {
			if l := rest[1].I; l < 0 {
				end = off
			} else if l < size-off {
				end = off + l
			}
		}
		n.Elems = n.Elems[off:end]
		return n.Encode(), nil
	}), nil
}

// bindMapContains binds map_contains_key, map_contains_value and
// map_contains_entry.
func bindMapContains(name string, args []Compiled) (Compiled, error) {
	mt := args[0].Type()
	if mt.Kind == types.Null {
		return &constNode{v: types.NullValue, t: tBool}, nil
	}
	if mt.Kind != types.Map {
		return nil, noSignature(name, args)
	}
	want := []int{0} // positions within an entry to match
	switch name {
	case "map_contains_key":
		args[1] = convertTo(args[1], mt.Nested.Elem)
	case "map_contains_value":
		args[1] = convertTo(args[1], mt.Nested.Value)
		want = []int{1}
	default:
		args[1], args[2] = convertTo(args[1], mt.Nested.Elem), convertTo(args[2], mt.Nested.Value)
		want = []int{0, 1}
	}
	return arrayFn(name, args, tBool, func(_ *Context, n types.Nested, rest []types.Value) (types.Value, error) {
		for i := 0; i < len(n.Elems); i += 2 {
			hit := true
			for j, w := range want {
				hit = hit && sameElem(n.Elems[i+w], rest[j])
			}
			if hit {
				return types.NewBool(true), nil
			}
		}
		return types.NewBool(false), nil
	}), nil
}

// convertTo converts c to the common type of c and t.
func convertTo(c Compiled, t types.Type) Compiled {
	if ct, ok := commonType(t, c.Type(), true); ok && ct.Kind != types.Null {
		return convert(c, ct)
	}
	return c
}

func init() {
	register(spec{min: 2, max: 2, args: []argKind{aStr}, ret: fixedType(types.ArrayOf(tString, false)), fn: splitByString}.def(), "split_by_string")
}

// splitByString is split_by_string(s, sep): the pieces of s between the
// occurrences of sep, or its characters when sep is empty.
func splitByString(_ *Context, v []types.Value) (types.Value, error) {
	var parts []string
	if v[1].S == "" {
		for _, r := range v[0].S {
			parts = append(parts, string(r))
		}
	} else {
		parts = strings.Split(v[0].S, v[1].S)
	}
	n := types.Nested{Type: types.ArrayOf(tString, false), Elems: make([]types.Value, len(parts))}
	for i, p := range parts {
		n.Elems[i] = types.NewString(types.String, p)
	}
	return n.Encode(), nil
}

// bindNeedle checks the (array, needle) arguments of a function that looks
// for one value in an array (a NULL array reads as ARRAY<NULL>) and casts
// the needle to the elements' common type.
func bindNeedle(name string, args []Compiled) error {
	at := args[0].Type()
	if at.Kind == types.Null {
		at = types.ArrayOf(tNull, false)
	}
	if at.Kind != types.Array {
		return noSignature(name, args)
	}
	if et, ok := commonType(at.Nested.Elem, args[1].Type(), true); ok && et.Kind != types.Null {
		args[1] = convert(args[1], et)
	}
	return nil
}

// arrayOperand checks the one array argument of a function: its element
// type, or, for a NULL literal, the NULL constant the call folds to.
func arrayOperand(name string, args []Compiled) (elem types.Type, null Compiled, err error) {
	at := args[0].Type()
	if at.Kind == types.Null {
		return types.Type{}, &constNode{v: types.NullValue, t: tNull}, nil
	}
	if at.Kind != types.Array {
		return types.Type{}, nil, noSignature(name, args)
	}
	return at.Nested.Elem, nil, nil
}
