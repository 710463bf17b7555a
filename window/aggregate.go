package window

import (
	"loadgw/expr"
	"loadgw/types"
)

// aggregate computes an aggregate over each row's frame. The state covers
// the rows [curLo, curHi]; a row whose frame extends it on the growing
// side adds only the new rows, any other frame starts over. Frames that
// end at UNBOUNDED FOLLOWING grow to the left, so those are walked from
// the last row backwards (Doris reverses such windows too).
func (c *Call) aggregate(p *Partition, ctx *expr.Context, out []types.Value, check func() error) error {
	n := len(p.Rows)
	if n == 0 {
		return nil
	}
	back := c.Frame.End.Type == expr.UnboundedFollowing && c.Frame.Start.Type != expr.UnboundedPreceding
	var state expr.AggState
	curLo, curHi := 1, 0 // empty
	args := make([]types.Value, len(c.Args))
	add := func(j int) error {
		for k, a := range c.Args {
			v, err := a.Eval(p.Rows[j], ctx)
			if err != nil {
				return err
			}
			args[k] = v
		}
		return c.Agg.Add(state, args)
	}
	added := 0
	for step := 0; step < n; step++ {
		i := step
		if back {
			i = n - 1 - step
		}
		lo, hi := c.bounds(p, i)
		switch {
		case state != nil && lo > hi && curLo > curHi:
			// still empty
		case state != nil && !back && lo == curLo && hi >= curHi:
			for j := max(curHi+1, lo); j <= hi; j++ {
				if err := add(j); err != nil {
					return err
				}
			}
			added += hi - curHi
			curHi = hi
		case state != nil && back && hi == curHi && lo <= curLo:
			for j := min(curLo-1, hi); j >= lo; j-- {
				if err := add(j); err != nil {
					return err
				}
			}
			added += curLo - lo
			curLo = lo
		default:
			state = c.Agg.NewState()
			for j := lo; j <= hi; j++ {
				if err := add(j); err != nil {
					return err
				}
			}
			added += hi - lo + 1
			curLo, curHi = lo, hi
		}
		if added >= 1<<16 {
			added = 0
			if err := check(); err != nil {
				return err
			}
		}
		out[i] = c.Agg.Result(state)
	}
	return nil
}
