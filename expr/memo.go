package expr

import "loadgw/types"

// Memo returns c evaluated at most once per row: within one row (between
// two Context.NextRow calls) every evaluation of the node after the first
// returns the first one's value. It is how a subexpression that several
// aggregate arguments share (Q1's l_extendedprice * (1 - l_discount)) is
// computed once per input row. id numbers the node among the Memo nodes
// evaluated with one Context (a slot of Context.memo); a Context that
// never calls NextRow evaluates c every time.
func Memo(c Compiled, id int) Compiled { return &memoNode{c: c, id: id} }

type memoNode struct {
	c  Compiled
	id int
}

// memoSlot is a Memo node's value for row row.
type memoSlot struct {
	node *memoNode
	row  uint64
	v    types.Value
}

// maxMemo bounds the Memo slots of one Context.
const maxMemo = 1024

// NextRow starts a new row for the Memo nodes evaluated with c.
func (c *Context) NextRow() {
	if c != nil {
		c.row++
	}
}

func (n *memoNode) Type() types.Type { return n.c.Type() }
func (n *memoNode) IsConst() bool    { return n.c.IsConst() }

func (n *memoNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	if ctx == nil || ctx.row == 0 || n.id >= maxMemo {
		return n.c.Eval(row, ctx)
	}
	if n.id >= len(ctx.memo) {
		ctx.memo = append(ctx.memo, make([]memoSlot, n.id+1-len(ctx.memo))...)
	}
	m := &ctx.memo[n.id]
	if m.node == n && m.row == ctx.row {
		return m.v, nil
	}
	v, err := n.c.Eval(row, ctx)
	if err != nil {
		return v, err
	}
	m.node, m.row, m.v = n, ctx.row, v
	return v, nil
}
