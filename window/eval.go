package window

import (
	"math"

	"loadgw/expr"
	"loadgw/types"
)

// Partition is one window partition, sorted by the window's ORDER BY.
// Rows are input rows; Peer[i] is the index of the first row of row i's
// peer group (rows equal on every ORDER BY key; all rows when there is no
// ORDER BY) and PeerEnd[i] one past its last row.
type Partition struct {
	Rows          [][]types.Value
	Peer, PeerEnd []int
}

// NewPartition computes the peer groups of rows with same(i, j)
// reporting whether rows i and j tie on the ORDER BY keys.
func NewPartition(rows [][]types.Value, same func(i, j int) bool) *Partition {
	p := &Partition{Rows: rows, Peer: make([]int, len(rows)), PeerEnd: make([]int, len(rows))}
	start := 0
	for i := range rows {
		if i > 0 && !same(i-1, i) {
			for j := start; j < i; j++ {
				p.PeerEnd[j] = i
			}
			start = i
		}
		p.Peer[i] = start
	}
	for j := start; j < len(rows); j++ {
		p.PeerEnd[j] = len(rows)
	}
	return p
}

// Eval computes c for every row of p into out (len(out) == len(p.Rows)).
// check is called now and then so a long computation can be cancelled.
func (c *Call) Eval(p *Partition, ctx *expr.Context, out []types.Value, check func() error) error {
	n := len(p.Rows)
	switch c.Kind {
	case RowNumber:
		for i := range out {
			out[i] = types.NewInt(types.BigInt, int64(i+1))
		}
	case Rank:
		for i := range out {
			out[i] = types.NewInt(types.BigInt, int64(p.Peer[i]+1))
		}
	case DenseRank:
		d := int64(0)
		for i := range out {
			if p.Peer[i] == i {
				d++
			}
			out[i] = types.NewInt(types.BigInt, d)
		}
	case PercentRank:
		for i := range out {
			f := 0.0
			if n > 1 {
				f = float64(p.Peer[i]) / float64(n-1)
			}
			out[i] = types.Value{Kind: types.Double, F: f}
		}
	case CumeDist:
		for i := range out {
			out[i] = types.Value{Kind: types.Double, F: float64(p.PeerEnd[i]) / float64(n)}
		}
	case Ntile:
		ntile(int64(n), c.N, out)
	case Lag, Lead:
		return c.lagLead(p, ctx, out)
	case FirstValue, LastValue, NthValue:
		return c.valueAt(p, ctx, out)
	case Aggregate:
		return c.aggregate(p, ctx, out, check)
	}
	return nil
}

// ntile splits n rows into buckets groups whose sizes differ by at most
// one, the larger groups first.
func ntile(n, buckets int64, out []types.Value) {
	size, extra := n/buckets, n%buckets
	var b, left int64 = 0, 0
	for i := range out {
		if left == 0 {
			b++
			left = size
			if b <= extra {
				left++
			}
		}
		left--
		out[i] = types.NewInt(types.BigInt, b)
	}
}

func (c *Call) lagLead(p *Partition, ctx *expr.Context, out []types.Value) error {
	for i := range out {
		j := addSat(int64(i), -c.N)
		if c.Kind == Lead {
			j = addSat(int64(i), c.N)
		}
		var err error
		if j >= 0 && j < int64(len(p.Rows)) {
			out[i], err = c.Args[0].Eval(p.Rows[j], ctx)
		} else {
			out[i], err = c.Default.Eval(p.Rows[i], ctx)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// bounds returns row i's frame [lo, hi] clamped to the partition; lo > hi
// for an empty frame.
func (c *Call) bounds(p *Partition, i int) (int, int) {
	n := len(p.Rows)
	at := func(b Bound, start bool) int64 {
		switch b.Type {
		case expr.UnboundedPreceding:
			return 0
		case expr.UnboundedFollowing:
			return int64(n - 1)
		case expr.Preceding:
			return addSat(int64(i), -b.N)
		case expr.Following:
			return addSat(int64(i), b.N)
		}
		if c.Frame.Units == expr.FrameRange {
			if start {
				return int64(p.Peer[i])
			}
			return int64(p.PeerEnd[i] - 1)
		}
		return int64(i)
	}
	lo, hi := max(at(c.Frame.Start, true), 0), min(at(c.Frame.End, false), int64(n-1))
	if lo > hi {
		return 1, 0
	}
	return int(lo), int(hi)
}

// valueAt computes first_value, last_value and nth_value over each frame.
func (c *Call) valueAt(p *Partition, ctx *expr.Context, out []types.Value) error {
	vals := make([]types.Value, len(p.Rows))
	for i, r := range p.Rows {
		v, err := c.Args[0].Eval(r, ctx)
		if err != nil {
			return err
		}
		vals[i] = v
	}
	for i := range out {
		lo, hi := c.bounds(p, i)
		out[i] = types.NullValue
		switch c.Kind {
		case FirstValue:
			for j := lo; j <= hi; j++ {
				if !c.IgnoreNulls || !vals[j].IsNull() {
					out[i] = vals[j]
					break
				}
			}
		case LastValue:
			for j := hi; j >= lo; j-- {
				if !c.IgnoreNulls || !vals[j].IsNull() {
					out[i] = vals[j]
					break
				}
			}
		case NthValue:
			if j := addSat(int64(lo), c.N-1); lo <= hi && j <= int64(hi) {
				out[i] = vals[j]
			}
		}
	}
	return nil
}

// addSat is a + b, saturated at the int64 range: offsets come from the
// query and may be as large as an int64 holds. REQUIRES: b > math.MinInt64.
func addSat(a, b int64) int64 {
	switch {
	case b > 0 && a > math.MaxInt64-b:
		return math.MaxInt64
	case b < 0 && a < math.MinInt64-b:
		return math.MinInt64
	}
	return a + b
}
