package expr

import (
	"fmt"
	"strings"

	"loadgw/types"
)

// Doris's table-generating functions (BuiltinTableGeneratingFunctions):
// they only appear in LATERAL VIEW, where each input row becomes as many
// rows as the function generates. The `_outer` forms generate one NULL row
// where the plain form generates none (NULL or empty input).

// TableFunc is a bound table-generating function.
type TableFunc struct {
	Name string
	// Type is the function's result type as Doris declares it: the element
	// type, or a STRUCT of Fields when Multi.
	Type types.Type
	// Multi: the function generates a STRUCT (several arrays zipped,
	// posexplode, explode_map, explode_json_object); each generated row
	// holds its fields' values.
	Multi  bool
	Fields []types.StructField
	outer  bool
	args   []Compiled
	// gen emits the rows for one set of evaluated arguments; emit's slice
	// holds one value, or one per field when Multi, and is only valid
	// during the call. gen reports whether it emitted anything.
	gen func(ctx *Context, args []types.Value, emit func([]types.Value) (bool, error)) (emitted, more bool, err error)
}

// Width is the number of values of one generated row.
func (f *TableFunc) Width() int {
	if f.Multi {
		return len(f.Fields)
	}
	return 1
}

// Run generates the rows of f for one input row. emit's slice is only valid
// during the call; emit returns false to stop (the rows are then not all
// generated). The one row an _outer form generates for NULL or empty input
// is a nil slice (every column NULL). Run returns false when emit did.
func (f *TableFunc) Run(row []types.Value, ctx *Context, emit func([]types.Value) (bool, error)) (bool, error) {
	base := len(ctx.stack)
	defer func() { ctx.stack = ctx.stack[:base] }()
	for _, a := range f.args {
		v, err := a.Eval(row, ctx)
		if err != nil {
			return false, err
		}
		ctx.stack = append(ctx.stack, v)
	}
	args := ctx.stack[base:]
	emitted, more, err := f.gen(ctx, args, emit)
	if err != nil || !more {
		return more, err
	}
	if !emitted && f.outer {
		return emit(nil)
	}
	return true, nil
}

// tableFuncs are the table-generating functions by name, the _outer forms
// included.
var tableFuncs = map[string]func(name string, args []Compiled) (*TableFunc, error){}

func registerTableFunc(bind func(name string, args []Compiled) (*TableFunc, error), names ...string) {
	for _, n := range names {
		tableFuncs[n] = bind
		tableFuncs[n+"_outer"] = bind
	}
}

// IsTableFunction reports whether name is a table-generating function.
func IsTableFunction(name string) bool {
	_, ok := tableFuncs[strings.ToLower(name)]
	return ok
}

// tableFuncDenied is Doris's CheckAnalysis error for a table function
// outside LATERAL VIEW.
func (s *Scope) tableFuncDenied(call *Call) error {
	clause := "PROJECT"
	if s != nil && s.Clause != "" {
		clause = s.Clause
	}
	return &Error{Msg: fmt.Sprintf("LOGICAL_%s can not contains TableGeneratingFunction expression: %s", clause, String(call))}
}

// BindTableFunc binds the function of a LATERAL VIEW over scope. A function
// that is not table-generating is Doris's `f(...) is not a
// TableGeneratingFunction` once its call binds.
func BindTableFunc(call *Call, scope *Scope) (*TableFunc, error) {
	name := strings.ToLower(call.Name)
	bind := tableFuncs[name]
	if bind == nil {
		// Doris binds the call first: an unknown function or wrong
		// arguments report as such.
		b := &binder{scope: scope}
		if _, err := b.bind(call); err != nil {
			return nil, err
		}
		return nil, errorf("%s is not a TableGeneratingFunction", String(call))
	}
	if call.Star || call.Distinct {
		return nil, errorf("%s does not support DISTINCT or *", name)
	}
	b := &binder{scope: scope}
	args, err := b.bindAll(call.Args)
	if err != nil {
		return nil, err
	}
	f, err := bind(name, args)
	if err != nil {
		return nil, err
	}
	if f.args == nil {
		f.args = args
	}
	f.Name = name
	f.outer = strings.HasSuffix(name, "_outer")
	return f, nil
}

// tfArity is Doris's error for a table function called with a wrong
// number of arguments.
func tfArity(name string, args []Compiled, want ...int) error {
	for _, n := range want {
		if len(args) == n {
			return nil
		}
	}
	var cands []string
	for _, n := range want {
		params := make([]string, n)
		for i := range params {
			params[i] = "Expression"
		}
		cands = append(cands, name+"("+strings.Join(params, ", ")+")")
	}
	return errorf("Can not found function '%s' which has %d arity. Candidate functions are: [%s]",
		name, len(args), strings.Join(cands, ", "))
}

func init() {
	registerTableFunc(bindExplode, "explode", "posexplode")
	registerTableFunc(bindExplodeMap, "explode_map")
	registerTableFunc(bindExplodeNumbers, "explode_numbers")
	registerTableFunc(bindExplodeBitmap, "explode_bitmap")
	registerTableFunc(bindExplodeSplit, "explode_split")
	registerTableFunc(bindExplodeJSONArray, "explode_json_array_int", "explode_json_array_double",
		"explode_json_array_string", "explode_json_array_json")
	registerTableFunc(bindExplodeJSONObject, "explode_json_object")
}

// bindExplode binds explode(arr [, arr ...]) and posexplode(...): one array
// generates its elements; several are zipped to the longest (a shorter or
// NULL array gives NULL fields) into STRUCT<col1, ...>, which posexplode
// prefixes with the 0-based pos.
func bindExplode(name string, args []Compiled) (*TableFunc, error) {
	pos := strings.HasPrefix(name, "posexplode")
	if len(args) == 0 {
		return nil, errorf("Can not found function '%s' which has 0 arity. Candidate functions are: [%s(Expression, Expression...)]", name, name)
	}
	var fields []types.StructField
	if pos {
		fields = append(fields, types.StructField{Name: "pos", Type: tInt})
	}
	for i, a := range args {
		t := a.Type()
		switch {
		case t.Kind == types.Null && !pos:
			t = tNull
		case t.Kind == types.Array:
			t = t.Nested.Elem
		case pos:
			return nil, errorf("only support array type for posexplode function but got %s", strings.ToUpper(typeName(t)))
		default:
			return nil, noSignature(name, args)
		}
		fields = append(fields, types.StructField{Name: fmt.Sprintf("col%d", i+1), Type: t})
	}
	f := &TableFunc{Fields: fields, Multi: pos || len(args) > 1, args: args}
	if f.Multi {
		f.Type = types.StructOf(fields)
	} else {
		f.Type = fields[0].Type
	}
	off := 0
	if pos {
		off = 1
	}
	f.gen = func(_ *Context, vals []types.Value, emit func([]types.Value) (bool, error)) (bool, bool, error) {
		arrs := make([][]types.Value, len(vals))
		longest := 0
		for i, v := range vals {
			n, ok, err := decodeArg(v)
			if err != nil {
				return false, false, err
			}
			if ok {
				arrs[i] = n.Elems
				longest = max(longest, len(n.Elems))
			}
		}
		out := make([]types.Value, len(fields))
		for j := 0; j < longest; j++ {
			if pos {
				out[0] = types.NewInt(types.Int, int64(j))
			}
			for i, a := range arrs {
				out[off+i] = types.NullValue
				if j < len(a) {
					out[off+i] = a[j]
				}
			}
			if more, err := emit(out); err != nil || !more {
				return true, false, err
			}
		}
		return longest > 0, true, nil
	}
	return f, nil
}

// bindExplodeMap binds explode_map(m): one STRUCT<col1 key, col2 value>
// per entry.
func bindExplodeMap(name string, args []Compiled) (*TableFunc, error) {
	if err := tfArity(name, args, 1); err != nil {
		return nil, err
	}
	t := args[0].Type()
	if t.Kind != types.Map {
		return nil, errorf("only support map type for %s function but got %s", strings.TrimSuffix(name, "_outer"), strings.ToUpper(typeName(t)))
	}
	fields := []types.StructField{{Name: "col1", Type: t.Nested.Elem}, {Name: "col2", Type: t.Nested.Value}}
	f := &TableFunc{Fields: fields, Multi: true, Type: types.StructOf(fields)}
	f.gen = func(_ *Context, vals []types.Value, emit func([]types.Value) (bool, error)) (bool, bool, error) {
		n, ok, err := decodeArg(vals[0])
		if !ok || err != nil {
			return false, err == nil, err
		}
		for i := 0; i+1 < len(n.Elems); i += 2 {
			if more, err := emit(n.Elems[i : i+2]); err != nil || !more {
				return true, false, err
			}
		}
		return len(n.Elems) > 0, true, nil
	}
	return f, nil
}

// maxExplodeNumbers bounds explode_numbers(n): a client cannot make one row
// generate more.
const maxExplodeNumbers = 10_000_000

// bindExplodeNumbers binds explode_numbers(n): the INTs 0 .. n-1.
func bindExplodeNumbers(name string, args []Compiled) (*TableFunc, error) {
	if err := tfArity(name, args, 1); err != nil {
		return nil, err
	}
	if k := args[0].Type().Kind; !isNumeric(k) && !isString(k) && k != types.Null && k != types.Boolean {
		return nil, noSignature(name, args)
	}
	args[0] = toKind(args[0], tInt)
	f := &TableFunc{Fields: []types.StructField{{Type: tInt}}, Type: tInt}
	f.gen = func(_ *Context, vals []types.Value, emit func([]types.Value) (bool, error)) (bool, bool, error) {
		if vals[0].IsNull() || vals[0].I <= 0 {
			return false, true, nil
		}
		if vals[0].I > maxExplodeNumbers {
			return false, false, errorf("explode_numbers(%d) generates more than %d rows", vals[0].I, maxExplodeNumbers)
		}
		out := make([]types.Value, 1)
		for i := int64(0); i < vals[0].I; i++ {
			out[0] = types.NewInt(types.Int, i)
			if more, err := emit(out); err != nil || !more {
				return true, false, err
			}
		}
		return true, true, nil
	}
	return f, nil
}

// bindExplodeBitmap binds explode_bitmap(b): its members as BIGINT,
// ascending.
func bindExplodeBitmap(name string, args []Compiled) (*TableFunc, error) {
	if err := tfArity(name, args, 1); err != nil {
		return nil, err
	}
	if k := args[0].Type().Kind; k != types.Bitmap && k != types.Null {
		return nil, noSignature(name, args)
	}
	f := &TableFunc{Fields: []types.StructField{{Type: tBigInt}}, Type: tBigInt}
	f.gen = func(_ *Context, vals []types.Value, emit func([]types.Value) (bool, error)) (bool, bool, error) {
		if vals[0].IsNull() {
			return false, true, nil
		}
		ms := members(vals[0])
		out := make([]types.Value, 1)
		for _, m := range ms {
			out[0] = types.NewInt(types.BigInt, int64(m))
			if more, err := emit(out); err != nil || !more {
				return true, false, err
			}
		}
		return len(ms) > 0, true, nil
	}
	return f, nil
}

// bindExplodeSplit binds explode_split(s, delimiter), which Doris rewrites
// to explode(split_by_string(s, delimiter)).
func bindExplodeSplit(name string, args []Compiled) (*TableFunc, error) {
	if err := tfArity(name, args, 2); err != nil {
		return nil, err
	}
	split, err := funcs["split_by_string"].bind("split_by_string", args)
	if err != nil {
		return nil, err
	}
	f, err := bindExplode("explode", []Compiled{split})
	if err != nil {
		return nil, err
	}
	f.Type, f.Fields[0].Type = tString, tString
	return f, nil
}

// bindExplodeJSONArray binds explode_json_array_int/double/string/json(j):
// the elements of a JSON array (a string argument is parsed as JSON)
// converted as Doris's cast of JSON to ARRAY<BIGINT|DOUBLE|STRING|JSON>
// does; an element that does not convert is NULL, and a value that is not
// a JSON array generates nothing.
func bindExplodeJSONArray(name string, args []Compiled) (*TableFunc, error) {
	if err := tfArity(name, args, 1); err != nil {
		return nil, err
	}
	if k := args[0].Type().Kind; k != types.JSON && !isString(k) && k != types.Null {
		return nil, noSignature(name, args)
	}
	var t types.Type
	var conv func(*jnode) types.Value
	switch strings.TrimSuffix(strings.TrimPrefix(name, "explode_json_array_"), "_outer") {
	case "int":
		t, conv = tBigInt, jsonElemToBigInt
	case "double":
		t, conv = tDouble, jsonElemToDouble
	case "string":
		t, conv = tString, jsonToString
	default:
		t, conv = tJSON, func(n *jnode) types.Value {
			if n.t == jNull {
				return types.NullValue
			}
			return jsonValue(n)
		}
	}
	f := &TableFunc{Fields: []types.StructField{{Type: t}}, Type: t}
	f.gen = func(_ *Context, vals []types.Value, emit func([]types.Value) (bool, error)) (bool, bool, error) {
		if vals[0].IsNull() {
			return false, true, nil
		}
		doc, ok := jsonArg(vals[0])
		if !ok || doc.t != jArray {
			return false, true, nil
		}
		out := make([]types.Value, 1)
		for _, k := range doc.kids {
			out[0] = conv(k)
			if more, err := emit(out); err != nil || !more {
				return true, false, err
			}
		}
		return len(doc.kids) > 0, true, nil
	}
	return f, nil
}

// jsonElemToBigInt converts an element for explode_json_array_int: an
// integer that fits BIGINT, a DOUBLE truncated when it fits, a string that
// reads as one of those; otherwise NULL.
func jsonElemToBigInt(n *jnode) types.Value {
	switch n.t {
	case jString:
		v, err := types.Cast(types.NewString(types.String, strings.TrimSpace(n.s)), tBigInt, nil)
		if err != nil {
			return types.NullValue
		}
		return v
	case jBool, jNull, jObject, jArray:
		return types.NullValue
	}
	return jsonToInt(n, types.BigInt)
}

// jsonElemToDouble converts an element for explode_json_array_double: a
// number, or a string that reads as one; otherwise NULL.
func jsonElemToDouble(n *jnode) types.Value {
	switch n.t {
	case jString:
		v, err := types.Cast(types.NewString(types.String, strings.TrimSpace(n.s)), tDouble, nil)
		if err != nil {
			return types.NullValue
		}
		return v
	case jBool, jNull, jObject, jArray:
		return types.NullValue
	}
	return jsonToDouble(n)
}

// bindExplodeJSONObject binds explode_json_object(j): one STRUCT<col1
// STRING key, col2 JSON value> per member of a JSON object.
func bindExplodeJSONObject(name string, args []Compiled) (*TableFunc, error) {
	if err := tfArity(name, args, 1); err != nil {
		return nil, err
	}
	if k := args[0].Type().Kind; k != types.JSON && !isString(k) && k != types.Null {
		return nil, noSignature(name, args)
	}
	fields := []types.StructField{{Name: "col1", Type: tString}, {Name: "col2", Type: tJSON}}
	f := &TableFunc{Fields: fields, Multi: true, Type: types.StructOf(fields)}
	f.gen = func(_ *Context, vals []types.Value, emit func([]types.Value) (bool, error)) (bool, bool, error) {
		if vals[0].IsNull() {
			return false, true, nil
		}
		doc, ok := jsonArg(vals[0])
		if !ok || doc.t != jObject {
			return false, true, nil
		}
		out := make([]types.Value, 2)
		for i, k := range doc.kids {
			out[0], out[1] = types.NewString(types.String, doc.keys[i]), jsonValue(k)
			if more, err := emit(out); err != nil || !more {
				return true, false, err
			}
		}
		return len(doc.kids) > 0, true, nil
	}
	return f, nil
}
