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
	// shared, when set, is the bytes of groups of all the partial
	// aggregations of one statement (agg_parallel.go): past budget in
	// total, a run ends with errAggOverBudget instead of spilling.
	shared *atomic.Int64
}

const (
	// aggFanOut is the number of partitions a spilling aggregation writes.
	aggFanOut = 16
	// aggMaxDepth bounds re-partitioning: a partition still too big at this
	// depth (one huge group key set) is aggregated in memory.
	aggMaxDepth = 4
)

// hashAgg is one run of an aggregation over its input (or, when spilled,
// over one partition file of its parent run). Its groups are numbered in
// the order they were made; a group's values (the aggregated row) are in
// rows, its aggregate states in cols.
type hashAgg struct {
	ap    *aggPlan
	ctx   *expr.Context
	lim   aggLimits
	depth int
	seed  maphash.Seed
	mem   int64
	// counted is the part of mem added to lim.shared.
	counted int64
	parts   []*spill.Writer // set once spilling
	key     []byte
	args    []types.Value
	one     [1]types.Value
	gvals   []types.Value
	masked  []types.Value
	rec     []types.Value
	// cols holds each aggregate call's states; nil for GROUPING().
	cols []expr.AggColumn
	// rows holds the groups' rows, groupSlabSize groups per slab; n is the
	// number of groups.
	rows  [][]types.Value
	width int
	n     int32
	// index finds the group of a key; sets, for GROUPING SETS, is each
	// group's grouping set.
	index groupIndex
	sets  []int32
	// ints, when set, indexes the groups of a plain GROUP BY of one
	// integer expression by its value (nullGroup is its NULL group, -1
	// while none), instead of index.
	ints      *intIndex
	nullGroup int32
}

// groupSlabSize is the number of group rows allocated at once.
const groupSlabSize = 256

func (ap *aggPlan) runBounded(source func(func([]types.Value) error) error, emit func([]types.Value) error, ctx *expr.Context, lim aggLimits) error {
	h := ap.newHashAgg(ctx, lim, 0)
	defer h.discard()
	consume := func(row []types.Value) error { return h.consume(row, -1) }
	if len(ap.groups) == 0 && ap.sets == nil {
		consume = h.consumeOne
	}
	if err := source(consume); err != nil {
		return err
	}
	if len(ap.groups) == 0 && h.n == 0 && ap.sets == nil {
		h.newGroup(nil, 0)
	}
	return h.finish(emit)
}

func (ap *aggPlan) newHashAgg(ctx *expr.Context, lim aggLimits, depth int) *hashAgg {
	h := &hashAgg{ap: ap, ctx: ctx, lim: lim, depth: depth, seed: maphash.MakeSeed(), nullGroup: -1,
		gvals: make([]types.Value, len(ap.groups)), masked: make([]types.Value, len(ap.groups)),
		width: len(ap.groups) + len(ap.aggs), cols: make([]expr.AggColumn, len(ap.aggs))}
	for i, a := range ap.aggs {
		if a.fn != nil {
			h.cols[i] = expr.NewAggColumn(a.fn)
		}
	}
	if len(ap.groups) == 1 && ap.sets == nil && mergeKeyType(ap.groups[0].Type()) {
		x := newIntIndex()
		h.ints = &x
		return h
	}
	kinds := make([]types.Kind, len(ap.groups))
	for i, c := range ap.groups {
		kinds[i] = c.Type().Kind
	}
	h.index = newGroupIndex(kinds, h.seed)
	return h
}

// row returns group g's row.
func (h *hashAgg) row(g int32) []types.Value {
	i := int(g%groupSlabSize) * h.width
	return h.rows[g/groupSlabSize][i : i+h.width : i+h.width]
}

// consumeOne is consume for an aggregation without GROUP BY: one group.
func (h *hashAgg) consumeOne(row []types.Value) error {
	if h.lim.poll != nil {
		if err := h.lim.poll(); err != nil {
			return err
		}
	}
	if h.n == 0 {
		h.newGroup(nil, 0)
	}
	return h.add(0, row)
}

// consumeInt is consume for a GROUP BY of one integer expression, whose
// value is in h.gvals[0].
func (h *hashAgg) consumeInt(row []types.Value) error {
	v := h.gvals[0]
	g := h.nullGroup
	if !v.IsNull() {
		g = h.ints.find(v.I)
	}
	if g < 0 {
		if h.parts != nil {
			h.key = storage.AppendKey(h.key[:0], v, h.ap.groups[0].Type())
			return h.spillRow(row, nil, 0)
		}
		g = h.newGroup(h.gvals, 0)
		if v.IsNull() {
			h.nullGroup = g
			h.mem += intKeyBytes
		} else {
			h.mem += h.ints.insert(v.I, g)
		}
		if err := h.maybeSpill(); err != nil {
			return err
		}
	}
	return h.add(g, row)
}

// intKeyBytes estimates an entry of intIndex's map.
const intKeyBytes = 24

// newGroup makes the next group, of key values vals in grouping set set,
// and returns its number.
func (h *hashAgg) newGroup(vals []types.Value, set int) int32 {
	ap := h.ap
	g := h.n
	if g%groupSlabSize == 0 {
		h.rows = append(h.rows, make([]types.Value, groupSlabSize*h.width))
	}
	h.n++
	row := h.row(g)
	copy(row, vals)
	for i, a := range ap.aggs {
		if a.fn == nil {
			row[len(ap.groups)+i] = ap.groupingValue(a, set)
			continue
		}
		h.cols[i].Grow()
		h.mem += h.cols[i].StateBytes()
	}
	if ap.sets != nil {
		h.sets = append(h.sets, int32(set))
	}
	h.mem += spill.RowBytes(row)
	return g
}

// find returns the group of key vals in grouping set set, whose hash is
// hash, or -1.
func (h *hashAgg) find(hash uint64, vals []types.Value, set int) int32 {
	x := &h.index
	for e := x.heads[hash]; e != 0; e = x.next[e-1] {
		g := e - 1
		if h.sets != nil && int(h.sets[g]) != set {
			continue
		}
		if x.sameKey(h.row(g)[:len(vals)], vals) {
			return g
		}
	}
	return -1
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
		if ap.sets != nil {
			vals = ap.mask(set, h.gvals, h.masked)
		}
		hash := h.index.hash(vals, set)
		g := h.find(hash, vals, set)
		if g < 0 {
			if h.parts != nil {
				if err := h.spillRow(row, vals, set); err != nil {
					return err
				}
				continue
			}
			g = h.newGroup(vals, set)
			h.index.insert(hash, g)
			h.mem += groupIndexBytes
			if err := h.maybeSpill(); err != nil {
				return err
			}
		}
		if err := h.add(g, row); err != nil {
			return err
		}
	}
	return nil
}

// add folds one source row into group g.
func (h *hashAgg) add(g int32, row []types.Value) error {
	h.ctx.NextRow()
	for i, a := range h.ap.aggs {
		col := h.cols[i]
		var err error
		switch {
		case col == nil:
		case a.slot >= 0:
			err = col.Add1(g, &row[a.slot])
		case a.one != nil:
			h.one[0], err = a.args[0].Eval(row, h.ctx)
			if err == nil {
				err = col.Add1(g, &h.one[0])
			}
		default:
			err = h.addArgs(col, g, a, row)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// addArgs folds the argument values of call a over row into group g.
func (h *hashAgg) addArgs(col expr.AggColumn, g int32, a *aggCall, row []types.Value) error {
	args := h.args[:0]
	for _, c := range a.args {
		v, err := c.Eval(row, h.ctx)
		if err != nil {
			return err
		}
		args = append(args, v)
	}
	h.args = args
	return col.Add(g, args)
}

// maybeSpill starts spilling once the groups outgrow the budget: the
// groups held stay and keep aggregating; rows of new groups go to files.
func (h *hashAgg) maybeSpill() error {
	if h.lim.shared != nil {
		total := h.lim.shared.Add(h.mem - h.counted)
		h.counted = h.mem
		if h.lim.budget > 0 && total > h.lim.budget {
			return errAggOverBudget
		}
		return nil
	}
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
// of its group key (h.key, or the key of vals when vals is not nil).
func (h *hashAgg) spillRow(row, vals []types.Value, set int) error {
	if vals != nil {
		h.key = h.key[:0]
		if h.ap.sets != nil {
			h.key = storage.AppendKey(h.key, types.NewInt(types.BigInt, int64(set)), types.Type{Kind: types.BigInt})
		}
		for i, c := range h.ap.groups {
			h.key = storage.AppendKey(h.key, vals[i], c.Type())
		}
	}
	p := maphash.Bytes(h.seed, h.key) % aggFanOut
	h.rec = append(append(h.rec[:0], types.NewInt(types.BigInt, int64(set))), row...)
	return h.parts[p].Write(h.rec)
}

// finish emits the groups held, then aggregates each partition file.
func (h *hashAgg) finish(emit func([]types.Value) error) error {
	ap := h.ap
	for g := int32(0); g < h.n; g++ {
		row := h.row(g)
		for i, col := range h.cols {
			if col != nil {
				row[len(ap.groups)+i] = col.Result(g)
			}
		}
		if err := emit(row); err != nil {
			return err
		}
	}
	h.rows, h.cols, h.ints, h.index, h.sets = nil, nil, nil, groupIndex{}, nil
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
