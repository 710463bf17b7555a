package engine

import (
	"hash/maphash"
	"sync/atomic"

	"loadgw/expr"
	"loadgw/spill"
	"loadgw/storage"
	"loadgw/types"
)

// aggLimits bound a hash aggregation's memory: past budget bytes of
// groups, rows of new groups spill to partition files in dir, aggregated
// one partition at a time afterwards. The zero value never spills.
type aggLimits struct {
	budget int64
	dir    string
	poll   func() error
	// spilled, when set, counts the partition files written.
	spilled *atomic.Int64
}

const (
	// aggFanOut is the number of partitions a spilling aggregation writes.
	aggFanOut = 16
	// aggMaxDepth bounds re-partitioning: a partition still too big at this
	// depth (one huge group key set) is aggregated in memory.
	aggMaxDepth = 4
	// groupOverhead estimates a group's bookkeeping beyond its values.
	groupOverhead = 96
	// stateBytes estimates one aggregate state.
	stateBytes = 48
)

// hashAgg is one run of an aggregation over its input (or, when spilled,
// over one partition file of its parent run).
type hashAgg struct {
	ap     *aggPlan
	ctx    *expr.Context
	lim    aggLimits
	depth  int
	seed   maphash.Seed
	index  map[string]*group
	order  []*group
	mem    int64
	parts  []*spill.Writer // set once spilling
	key    []byte
	args   []types.Value
	gvals  []types.Value
	masked []types.Value
	rec    []types.Value
	// ints, when set, indexes the groups of a plain GROUP BY of one
	// integer expression by its value (nullGroup is its NULL group),
	// instead of index by encoded key.
	ints      map[int64]*group
	nullGroup *group
	// groupSlab, rowSlab and stateSlab are cut into new groups: one
	// allocation per groupSlabSize groups instead of three per group.
	groupSlab []group
	rowSlab   []types.Value
	stateSlab []expr.AggState
}

// groupSlabSize is the number of groups allocated at once.
const groupSlabSize = 256

func (ap *aggPlan) runBounded(source func(func([]types.Value) error) error, emit func([]types.Value) error, ctx *expr.Context, lim aggLimits) error {
	h := ap.newHashAgg(ctx, lim, 0)
	defer h.discard()
	if err := source(func(row []types.Value) error { return h.consume(row, -1) }); err != nil {
		return err
	}
	if len(ap.groups) == 0 && len(h.order) == 0 && ap.sets == nil {
		h.newGroup(nil, 0, "")
	}
	return h.finish(emit)
}

func (ap *aggPlan) newHashAgg(ctx *expr.Context, lim aggLimits, depth int) *hashAgg {
	h := &hashAgg{ap: ap, ctx: ctx, lim: lim, depth: depth, seed: maphash.MakeSeed(), index: map[string]*group{},
		gvals: make([]types.Value, len(ap.groups)), masked: make([]types.Value, len(ap.groups))}
	if len(ap.groups) == 1 && ap.sets == nil && mergeKeyType(ap.groups[0].Type()) {
		h.ints = map[int64]*group{}
	}
	return h
}

// consumeInt is consume for a GROUP BY of one integer expression, whose
// value is in h.gvals[0].
func (h *hashAgg) consumeInt(row []types.Value) error {
	v := h.gvals[0]
	var g *group
	if v.IsNull() {
		g = h.nullGroup
	} else {
		g = h.ints[v.I]
	}
	if g == nil {
		if h.parts != nil {
			h.key = storage.AppendKey(h.key[:0], v, h.ap.groups[0].Type())
			return h.spillRow(row, 0)
		}
		g = h.newGroup(h.gvals, 0, "")
		h.mem += intKeyBytes
		if v.IsNull() {
			h.nullGroup = g
		} else {
			h.ints[v.I] = g
		}
		if err := h.maybeSpill(); err != nil {
			return err
		}
	}
	return h.ap.add(g, row, h.ctx, &h.args)
}

// intKeyBytes estimates an entry of hashAgg.ints.
const intKeyBytes = 24

func (h *hashAgg) newGroup(vals []types.Value, set int, key string) *group {
	ap := h.ap
	width, n := len(ap.groups)+len(ap.aggs), len(ap.aggs)
	if len(h.groupSlab) == 0 {
		h.groupSlab = make([]group, groupSlabSize)
		h.rowSlab = make([]types.Value, groupSlabSize*width)
		h.stateSlab = make([]expr.AggState, groupSlabSize*n)
	}
	g := &h.groupSlab[0]
	h.groupSlab = h.groupSlab[1:]
	g.row, h.rowSlab = h.rowSlab[:width:width], h.rowSlab[width:]
	g.states, h.stateSlab = h.stateSlab[:n:n], h.stateSlab[n:]
	copy(g.row, vals)
	for i, a := range ap.aggs {
		if a.fn == nil {
			g.row[len(ap.groups)+i] = ap.groupingValue(a, set)
			continue
		}
		g.states[i] = a.fn.NewState()
	}
	h.order = append(h.order, g)
	h.mem += groupOverhead + 2*int64(len(key)) + spill.RowBytes(g.row) + stateBytes*int64(len(ap.aggs))
	return g
}

// consume folds one input row into its groups: every grouping set, or
// only set onlySet (a row read back from a partition file).
func (h *hashAgg) consume(row []types.Value, onlySet int) error {
	ap := h.ap
	if h.lim.poll != nil {
		if err := h.lim.poll(); err != nil {
			return err
		}
	}
	for i, c := range ap.groups {
		v, err := c.Eval(row, h.ctx)
		if err != nil {
			return err
		}
		h.gvals[i] = v
	}
	if h.ints != nil {
		return h.consumeInt(row)
	}
	for set := 0; set < max(len(ap.sets), 1); set++ {
		if onlySet >= 0 && set != onlySet {
			continue
		}
		vals := h.gvals
		h.key = h.key[:0]
		if ap.sets != nil {
			vals = ap.mask(set, h.gvals, h.masked)
			h.key = storage.AppendKey(h.key, types.NewInt(types.BigInt, int64(set)), types.Type{Kind: types.BigInt})
		}
		for i, c := range ap.groups {
			h.key = storage.AppendKey(h.key, vals[i], c.Type())
		}
		g := h.index[string(h.key)]
		if g == nil {
			if h.parts != nil {
				if err := h.spillRow(row, set); err != nil {
					return err
				}
				continue
			}
			g = h.newGroup(vals, set, string(h.key))
			h.index[string(h.key)] = g
			if err := h.maybeSpill(); err != nil {
				return err
			}
		}
		if err := ap.add(g, row, h.ctx, &h.args); err != nil {
			return err
		}
	}
	return nil
}

// maybeSpill starts spilling once the groups outgrow the budget: the
// groups held stay and keep aggregating; rows of new groups go to files.
func (h *hashAgg) maybeSpill() error {
	if h.lim.budget <= 0 || h.mem <= h.lim.budget || h.depth >= aggMaxDepth || len(h.ap.groups) == 0 {
		return nil
	}
	h.parts = make([]*spill.Writer, aggFanOut)
	for i := range h.parts {
		w, err := spill.Create(h.lim.dir)
		if err != nil {
			return err
		}
		h.parts[i] = w
	}
	if h.lim.spilled != nil {
		h.lim.spilled.Add(aggFanOut)
	}
	return nil
}

// spillRow writes row, with the grouping set it is for, to the partition
// of its group key.
func (h *hashAgg) spillRow(row []types.Value, set int) error {
	p := maphash.Bytes(h.seed, h.key) % aggFanOut
	h.rec = append(append(h.rec[:0], types.NewInt(types.BigInt, int64(set))), row...)
	return h.parts[p].Write(h.rec)
}

// finish emits the groups held, then aggregates each partition file.
func (h *hashAgg) finish(emit func([]types.Value) error) error {
	ap := h.ap
	for _, g := range h.order {
		for i, a := range ap.aggs {
			if a.fn != nil {
				g.row[len(ap.groups)+i] = a.fn.Result(g.states[i])
			}
		}
		if err := emit(g.row); err != nil {
			return err
		}
	}
	h.index, h.order, h.ints, h.nullGroup = nil, nil, nil, nil
	parts := h.parts
	h.parts = nil
	for i, w := range parts {
		parts[i] = nil
		if err := h.aggregatePart(w, emit); err != nil {
			for _, rest := range parts[i+1:] {
				rest.Discard()
			}
			return err
		}
	}
	return nil
}

func (h *hashAgg) aggregatePart(w *spill.Writer, emit func([]types.Value) error) error {
	if w.Rows() == 0 {
		w.Discard()
		return nil
	}
	r, err := w.Finish()
	if err != nil {
		return err
	}
	defer r.Close()
	sub := h.ap.newHashAgg(h.ctx, h.lim, h.depth+1)
	defer sub.discard()
	for {
		rec, err := r.Next()
		if err != nil {
			return err
		}
		if rec == nil {
			break
		}
		if err := sub.consume(rec[1:], int(rec[0].I)); err != nil {
			return err
		}
	}
	return sub.finish(emit)
}

// discard removes the partition files of a run that did not finish.
func (h *hashAgg) discard() {
	for _, w := range h.parts {
		if w != nil {
			w.Discard()
		}
	}
	h.parts = nil
}
