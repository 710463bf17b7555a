package expr

import (
	"unicode/utf8"

	"loadgw/types"
)

// json_quote, json_unquote and json_remove.

// jsonQuote is json_quote(s): s as a JSON string literal, a byte that is
// not UTF-8 as U+FFFD.
func jsonQuote(_ *Context, a []types.Value) (types.Value, error) {
	b := types.AppendJSONQuoted(make([]byte, 0, len(a[0].S)+2), a[0].S, string(utf8.RuneError))
	return types.NewString(types.Varchar, string(b)), nil
}

// jsonUnquote is json_unquote(s): a JSON string literal decoded; any other
// text is returned as is.
func jsonUnquote(_ *Context, a []types.Value) (types.Value, error) {
	s := a[0].S
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		p := jparser{s: s}
		if n, ok := p.str(); ok && p.i == len(s) {
			return types.NewString(types.Varchar, n.s), nil
		}
	}
	return types.NewString(types.Varchar, s), nil
}

// jsonRemove is json_remove(j, path, ...): j without the value at each
// path, applied in order; a path that matches nothing changes nothing.
func jsonRemove(_ *Context, a []types.Value) (types.Value, error) {
	for _, v := range a {
		if v.IsNull() {
			return types.NullValue, nil
		}
	}
	doc, ok := jsonArg(a[0])
	if !ok {
		return types.NullValue, nil
	}
	// Doris's texts name the row in its block; loadgw evaluates row by row
	// and says row 0.
	for i, p := range a[1:] {
		steps, err := parseJPath(p.S)
		if err != nil {
			return types.NullValue, errorf("Json path error: Invalid Json Path for value: %s at row: 0", p.S)
		}
		if hasWild(steps) {
			return types.NullValue, errorf("In this situation, path expressions may not contain the * and ** tokens or an array range, argument index: %d, row index: 0", i+1)
		}
		if len(steps) > 0 { // "$" removes nothing, as Doris's clone_without_path
			doc = doc.without(steps)
		}
	}
	return jsonValue(doc), nil
}

// without returns n with the value at steps removed (n itself when the path
// matches nothing), re-rendering only the changed containers.
func (n *jnode) without(steps []jstep) *jnode {
	st := steps[0]
	idx := -1
	switch {
	case st.isIdx && n.t == jArray:
		idx = st.idx
		if st.last {
			idx = len(n.kids) - 1 - st.idx
		}
		if idx >= len(n.kids) {
			idx = -1
		}
	case !st.isIdx && n.t == jObject:
		for j, k := range n.keys {
			if k == st.key {
				idx = j
				break
			}
		}
	}
	if idx < 0 {
		return n
	}
	c := &jnode{t: n.t, keys: n.keys, kids: n.kids}
	if len(steps) == 1 {
		c.kids = append(append([]*jnode{}, n.kids[:idx]...), n.kids[idx+1:]...)
		if n.t == jObject {
			c.keys = append(append([]string{}, n.keys[:idx]...), n.keys[idx+1:]...)
		}
	} else {
		k := n.kids[idx].without(steps[1:])
		if k == n.kids[idx] {
			return n
		}
		c.kids = append([]*jnode{}, n.kids...)
		c.kids[idx] = k
	}
	c.render()
	return c
}

// render sets raw of a container from its children.
func (n *jnode) render() {
	var b []byte
	if n.t == jArray {
		b = append(b, '[')
		for i, k := range n.kids {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, k.raw...)
		}
		n.raw = string(append(b, ']'))
		return
	}
	b = append(b, '{')
	for i, k := range n.kids {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, n.keys[i])
		b = append(b, ':')
		b = append(b, k.raw...)
	}
	n.raw = string(append(b, '}'))
}

func init() {
	vc := fixedType(types.Type{Kind: types.Varchar, Len: types.MaxVarcharLen})
	register(spec{min: 1, max: 1, args: []argKind{aStr}, ret: vc, fn: jsonQuote}.def(), "json_quote")
	register(spec{min: 1, max: 1, args: []argKind{aStr}, ret: vc, fn: jsonUnquote}.def(), "json_unquote")
	register(spec{min: 2, max: -1, args: []argKind{aJSON, aStr}, ret: fixedType(tJSON), fn: jsonRemove, seesNull: true}.def(), "json_remove", "jsonb_remove")
}
