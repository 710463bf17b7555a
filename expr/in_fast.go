package expr

import "loadgw/types"

// inConsts is x [NOT] IN (constants...) with x and every constant strings,
// or x and every constant integers of any width: the list is compared in
// place, without a call per item. A NULL in the list keeps the generic
// inNode (its NULL answer for no match).
type inConsts struct {
	inNode
	strs []string
	ints []int64
}

// newIn returns the node of n, fast when its list is constants of x's
// family.
func newIn(n *inNode) Compiled {
	xk := n.x.Type().Kind
	f := &inConsts{inNode: *n}
	for _, c := range n.list {
		k, ok := c.(*constNode)
		if !ok || k.v.Kind == types.Null {
			return n
		}
		switch {
		case isString(xk) && isString(k.v.Kind):
			f.strs = append(f.strs, k.v.S)
		case isSmallInt(xk) && isSmallInt(k.v.Kind):
			f.ints = append(f.ints, k.v.I)
		default:
			return n
		}
	}
	if len(f.strs) > 0 && len(f.ints) > 0 || len(n.list) == 0 {
		return n
	}
	return f
}

func (n *inConsts) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	x, err := n.x.Eval(row, ctx)
	if err != nil || x.Kind == types.Null {
		return types.NullValue, err
	}
	found := false
	if n.strs != nil {
		for _, s := range n.strs {
			if x.S == s {
				found = true
				break
			}
		}
	} else {
		for _, i := range n.ints {
			if x.I == i {
				found = true
				break
			}
		}
	}
	return types.NewBool(found != n.not), nil
}
