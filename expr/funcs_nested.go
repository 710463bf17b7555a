package expr

import (
	"strings"

	"loadgw/types"
)

// Constructors and element access of ARRAY, MAP and STRUCT, with Doris's
// (Nereids) names and rules. `[a, b]` parses as array(a, b), `{k: v}` as
// map(k, v), `{a, b}` as struct(a, b) and `x[i]` as element_at(x, i).

func init() {
	register(&funcDef{min: 0, max: -1, bind: bindArray}, "array")
	register(&funcDef{min: 0, max: -1, bind: bindMap}, "map")
	register(&funcDef{min: 1, max: -1, bind: bindStruct}, "struct")
	register(&funcDef{min: 2, max: -1, bind: bindNamedStruct}, "named_struct")
	register(&funcDef{min: 2, max: 2, bind: bindElementAt}, "element_at")
	register(&funcDef{min: 2, max: 2, bind: bindStructElement}, "struct_element")
}

// nestedNode builds or reads nested values; fn sees NULL arguments.
func nestedNode(name string, args []Compiled, t types.Type, fn evalFn) Compiled {
	return &funcNode{name: name, args: args, t: t, fn: fn, seesNull: true}
}

func bindArray(name string, args []Compiled) (Compiled, error) {
	et, err := elementsType(args)
	if err != nil {
		return nil, err
	}
	for i := range args {
		args[i] = convert(args[i], et)
	}
	t := types.ArrayOf(et, false)
	return nestedNode(name, args, t, func(ctx *Context, vals []types.Value) (types.Value, error) {
		if err := checkValueBytes(sumBytes(vals, 0)); err != nil {
			return types.NullValue, err
		}
		n := types.Nested{Type: t, Elems: append([]types.Value(nil), vals...)}
		return n.Encode(), nil
	}), nil
}

func bindMap(name string, args []Compiled) (Compiled, error) {
	if len(args)%2 != 0 {
		return nil, errorf("map can't be odd parameters, need even parameters %s", callSQL(name, args))
	}
	var keys, vals []Compiled
	for i := 0; i < len(args); i += 2 {
		keys, vals = append(keys, args[i]), append(vals, args[i+1])
	}
	for _, a := range args {
		if k := a.Type().Kind; k == types.JSON || k == types.Variant {
			return nil, errorf("map does not support jsonb/variant type")
		}
	}
	kt, err := elementsType(keys)
	if err != nil {
		return nil, err
	}
	vt, err := elementsType(vals)
	if err != nil {
		return nil, err
	}
	for i := range args {
		if i%2 == 0 {
			args[i] = convert(args[i], kt)
		} else {
			args[i] = convert(args[i], vt)
		}
	}
	t := types.MapOf(kt, vt)
	return nestedNode(name, args, t, func(ctx *Context, v []types.Value) (types.Value, error) {
		return types.Nested{Type: t, Elems: dedupMap(v)}.Encode(), nil
	}), nil
}

// dedupMap keeps the last entry of each key, where it stands, as Doris's
// map() does (DeduplicateMap): map('a', 1, 'b', 2, 'a', 3) is {"b":2, "a":3}.
func dedupMap(kv []types.Value) []types.Value {
	seen := make(map[string]bool, len(kv)/2)
	keep := make([]bool, len(kv)/2)
	n := 0
	for i := len(kv)/2 - 1; i >= 0; i-- {
		if k := valueKey(kv[2*i]); !seen[k] {
			seen[k], keep[i] = true, true
			n++
		}
	}
	out := make([]types.Value, 0, 2*n)
	for i, ok := range keep {
		if ok {
			out = append(out, kv[2*i], kv[2*i+1])
		}
	}
	return out
}

func bindStruct(name string, args []Compiled) (Compiled, error) {
	fs := make([]types.StructField, len(args))
	for i, a := range args {
		if k := a.Type().Kind; k == types.JSON || k == types.Variant {
			return nil, errorf("struct does not support jsonb/variant type")
		}
		// StructLiteral.COL_PREFIX: fields are col1, col2, ...
		fs[i] = types.StructField{Name: "col" + itoa(i+1), Type: a.Type()}
	}
	return structNode(name, args, fs), nil
}

func structNode(name string, args []Compiled, fs []types.StructField) Compiled {
	t := types.StructOf(fs)
	return nestedNode(name, args, t, func(ctx *Context, v []types.Value) (types.Value, error) {
		n := types.Nested{Type: t, Elems: append([]types.Value(nil), v...)}
		if err := n.Coerce(ctx.loc()); err != nil {
			return types.NullValue, err
		}
		return n.Encode(), nil
	})
}

func bindNamedStruct(name string, args []Compiled) (Compiled, error) {
	if len(args)%2 != 0 {
		return nil, errorf("named_struct can't be odd parameters, need even parameters %s", callSQL(name, args))
	}
	var fs []types.StructField
	var vals []Compiled
	seen := map[string]bool{}
	for i := 0; i < len(args); i += 2 {
		c, ok := args[i].(*constNode)
		if !ok || !isString(c.t.Kind) {
			return nil, errorf("named_struct only allows constant string parameter in odd position: %s", callSQL(name, args))
		}
		low := strings.ToLower(c.v.S)
		if seen[low] {
			return nil, errorf("The name of the struct field cannot be repeated. same name fields are %s", low)
		}
		seen[low] = true
		if k := args[i+1].Type().Kind; k == types.JSON || k == types.Variant {
			return nil, errorf("named_struct does not support jsonb/variant type")
		}
		fs = append(fs, types.StructField{Name: low, Type: args[i+1].Type()}) // Doris's StructField lower-cases
		vals = append(vals, args[i+1])
	}
	return structNode(name, vals, fs), nil
}

// bindElementAt binds element_at(array, i) (1-based, negative from the
// end, NULL out of range) and element_at(map, key). On a VARIANT base it
// binds the function variant_element_at when one is registered.
func bindElementAt(name string, args []Compiled) (Compiled, error) {
	bt := args[0].Type()
	switch bt.Kind {
	case types.Array:
		args[1] = convertArg(args[1], aInt)
		return nestedNode(name, args, bt.Nested.Elem, evalArrayAt), nil
	case types.Map:
		args[1] = convert(args[1], bt.Nested.Elem)
		return nestedNode(name, args, bt.Nested.Value, evalMapAt), nil
	case types.Null:
		return &constNode{v: types.NullValue, t: tNull}, nil
	case types.Variant:
		if def := funcs["variant_element_at"]; def != nil && def.bind != nil {
			return def.bind("variant_element_at", args)
		}
	}
	return nil, errorf("Can not find the compatibility function signature: %s", callSQLTypes(name, args))
}

func evalArrayAt(ctx *Context, v []types.Value) (types.Value, error) {
	if v[0].IsNull() || v[1].IsNull() {
		return types.NullValue, nil
	}
	n, err := types.Decode(v[0])
	if err != nil {
		return types.NullValue, err
	}
	i := v[1].I
	switch {
	case i > 0 && i <= int64(len(n.Elems)):
		return n.Elems[i-1], nil
	case i < 0 && -i <= int64(len(n.Elems)):
		return n.Elems[int64(len(n.Elems))+i], nil
	}
	return types.NullValue, nil
}

func evalMapAt(ctx *Context, v []types.Value) (types.Value, error) {
	if v[0].IsNull() {
		return types.NullValue, nil
	}
	n, err := types.Decode(v[0])
	if err != nil {
		return types.NullValue, err
	}
	for i := len(n.Elems) - 2; i >= 0; i -= 2 {
		if sameElem(n.Elems[i], v[1]) {
			return n.Elems[i+1], nil
		}
	}
	return types.NullValue, nil
}

// sameElem is element equality where NULL equals NULL.
func sameElem(a, b types.Value) bool {
	if a.IsNull() || b.IsNull() {
		return a.IsNull() && b.IsNull()
	}
	return types.Compare(a, b) == 0
}

// bindStructElement binds struct_element(s, 'name' | position).
func bindStructElement(name string, args []Compiled) (Compiled, error) {
	st := args[0].Type()
	if st.Kind == types.Null {
		return &constNode{v: types.NullValue, t: tNull}, nil
	}
	if st.Kind != types.Struct {
		return nil, errorf("Can not find the compatibility function signature: %s", callSQLTypes(name, args))
	}
	c, ok := args[1].(*constNode)
	if !ok || !(isString(c.t.Kind) || isIntegral(c.t.Kind)) {
		return nil, errorf("struct_element only allows constant int or string second parameter: %s", callSQL(name, args))
	}
	idx := -1
	if isIntegral(c.t.Kind) {
		if c.v.I <= 0 || c.v.I > int64(len(st.Nested.Fields)) {
			return nil, errorf("the specified field index out of bound: %s", callSQL(name, args))
		}
		idx = int(c.v.I - 1)
	} else if idx = st.StructFieldIndex(c.v.S); idx < 0 {
		return nil, errorf("the specified field name %s was not found: %s", c.v.S, callSQL(name, args))
	}
	return nestedNode(name, args, st.Nested.Fields[idx].Type, func(ctx *Context, v []types.Value) (types.Value, error) {
		if v[0].IsNull() {
			return types.NullValue, nil
		}
		n, err := types.Decode(v[0])
		if err != nil || idx >= len(n.Elems) {
			return types.NullValue, err
		}
		return n.Elems[idx], nil
	}), nil
}

// callSQL spells a call for error texts (Doris's Expression.toSql).
func callSQL(name string, args []Compiled) string {
	parts := make([]string, len(args))
	for i, a := range args {
		if c, ok := a.(*constNode); ok {
			parts[i] = literalSQL(c.v)
			continue
		}
		parts[i] = a.Type().String()
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

func callSQLTypes(name string, args []Compiled) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = strings.ToUpper(a.Type().String())
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

func literalSQL(v types.Value) string {
	switch {
	case v.IsNull():
		return "NULL"
	case isString(v.Kind):
		return "'" + v.S + "'"
	}
	return types.Format(v, nil)
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// structDeref binds s.f, where no table is named s but a STRUCT column is,
// as struct_element(s, 'f') (Doris's UnboundSlot with name parts [s, f]).
func (b *binder) structDeref(e *ColumnRef) (Compiled, bool) {
	if e.Table == "" || b.scope == nil {
		return nil, false
	}
	idx, t, err := b.scope.lookup(&ColumnRef{P: e.P, Name: e.Table})
	if err != nil || t.Kind != types.Struct || t.StructFieldIndex(e.Name) < 0 {
		return nil, false
	}
	c, err := bindStructElement("struct_element", []Compiled{&colNode{idx: idx, t: t}, &constNode{v: types.NewString(types.Varchar, e.Name), t: tVarchar}})
	return c, err == nil
}
