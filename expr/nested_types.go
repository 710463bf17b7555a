package expr

import "loadgw/types"

// nestedCommon is commonType of two nested types of one kind: the common
// type of their elements (STRUCTs of the same field count keep the first's
// names).
func nestedCommon(a, b types.Type, forCompare bool) (types.Type, bool) {
	if a.Kind != b.Kind || a.Nested == nil || b.Nested == nil {
		return types.Type{}, false
	}
	if a.Equal(b) {
		return a, true
	}
	na, nb := a.Nested, b.Nested
	switch a.Kind {
	case types.Array:
		e, ok := commonType(na.Elem, nb.Elem, forCompare)
		return types.ArrayOf(e, na.ElemNotNull && nb.ElemNotNull), ok
	case types.Map:
		k, ok1 := commonType(na.Elem, nb.Elem, forCompare)
		v, ok2 := commonType(na.Value, nb.Value, forCompare)
		return types.MapOf(k, v), ok1 && ok2
	}
	if len(na.Fields) != len(nb.Fields) {
		return types.Type{}, false
	}
	fs := make([]types.StructField, len(na.Fields))
	for i, f := range na.Fields {
		t, ok := commonType(f.Type, nb.Fields[i].Type, forCompare)
		if !ok {
			return types.Type{}, false
		}
		fs[i] = types.StructField{Name: f.Name, Type: t}
	}
	return types.StructOf(fs), true
}

// elementsType is the common type of a list of arguments (NULL when
// empty), for array(...) and the keys and values of map(...).
func elementsType(args []Compiled) (types.Type, error) {
	t := types.Type{Kind: types.Null}
	for _, a := range args {
		ct, ok := commonType(t, a.Type(), false)
		if !ok {
			return t, errorf("can not find common type of %s and %s", t, a.Type())
		}
		t = ct
	}
	return t, nil
}
