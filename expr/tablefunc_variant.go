package expr

import (
	"fmt"

	"loadgw/types"
)

func init() {
	registerTableFunc(bindExplodeVariantArray, "explode_variant_array")
}

// bindExplodeVariantArray binds explode_variant_array(v [, v ...]): the
// elements of VARIANT arrays, each a VARIANT, zipped like explode's arrays.
// A NULL (missing) value generates nothing; a value that is not an array
// is Doris's error.
func bindExplodeVariantArray(name string, args []Compiled) (*TableFunc, error) {
	if len(args) == 0 {
		return nil, errorf("Can not found function '%s' which has 0 arity. Candidate functions are: [%s(Expression...)]", name, name)
	}
	var fields []types.StructField
	for i, a := range args {
		if a.Type().Kind != types.Variant {
			return nil, noSignature(name, args)
		}
		fields = append(fields, types.StructField{Name: fmt.Sprintf("col%d", i+1), Type: a.Type()})
	}
	f := &TableFunc{Fields: fields, Multi: len(args) > 1, args: args}
	f.Type = fields[0].Type
	if f.Multi {
		f.Type = types.StructOf(fields)
	}
	f.gen = func(_ *Context, vals []types.Value, emit func([]types.Value) (bool, error)) (bool, bool, error) {
		arrs := make([][]types.Value, len(vals))
		longest := 0
		for i, v := range vals {
			if v.IsNull() {
				continue
			}
			doc, ok := parseJNode(v.S)
			if types.IsPlainVariantString(v) || !ok || doc.t != jArray {
				return false, false, errorf("explode not support none array type")
			}
			for _, k := range doc.kids {
				arrs[i] = append(arrs[i], variantElem(k))
			}
			longest = max(longest, len(arrs[i]))
		}
		out := make([]types.Value, len(vals))
		for j := 0; j < longest; j++ {
			for i, a := range arrs {
				out[i] = types.NullValue
				if j < len(a) {
					out[i] = a[j]
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

// variantElem is one element of a VARIANT array as a VARIANT: a string
// prints unquoted, as a string subcolumn does.
func variantElem(n *jnode) types.Value {
	switch n.t {
	case jNull:
		return types.NullValue
	case jString:
		return types.PlainVariantString(n.s)
	}
	v, err := types.ParseVariant(n.raw)
	if err != nil {
		return types.NullValue
	}
	return v
}
