package engine

import (
	"fmt"
	"strconv"
	"strings"

	"loadgw/expr"
	"loadgw/spill"
	"loadgw/types"
)

// rowFn receives one row of an operator's output. The slice is only valid
// during the call (operators reuse it); a consumer that keeps a row copies
// it. Returning false stops the producer early (limit push-down).
type rowFn func(row []types.Value) (bool, error)

// relNode is an operator of a query plan: a tree of them is the plan of a
// statement. run pushes the node's rows into fn, in order; it may be called
// more than once (a correlated subquery's plan runs once per outer row).
type relNode interface {
	// cols is the layout of the rows the node produces.
	cols() []expr.Column
	run(x *execCtx, fn rowFn) error
	// estimate is the planner's guess of the number of rows produced.
	estimate() int64
	// explain is the node's line in EXPLAIN and its inputs.
	explain(verbose bool) (string, []relNode)
}

// execCtx is the state of one execution of a statement: its one reference
// time (ctx.Now) and session.
type execCtx struct {
	s   *Session
	ctx *expr.Context
	st  *stmtCtx
	// keyFilters are the probe key filters hash joins have installed on
	// the scans they probe (see join_keyfilter.go).
	keyFilters map[*scanNode]*keyFilter
	// spools are the rows of the spools of the joins running (see
	// rel_spool.go).
	spools map[*spoolNode]*spoolState
	// lookup, on a scan worker of a split scan, is the index lookup's row
	// keys collected once for all its workers (scan_split.go).
	lookup *presetLookup
}

func (x *execCtx) truth(c expr.Compiled, row []types.Value) (bool, error) {
	v, err := c.Eval(row, x.ctx)
	if err != nil {
		return false, err
	}
	return !v.IsNull() && truthy(v), nil
}

// collect runs n and returns copies of its rows.
func collect(x *execCtx, n relNode) ([][]types.Value, error) {
	var out [][]types.Value
	var slab []types.Value // rows are cut from slabs: one allocation per collectSlab values
	size := 16             // the first slabs are small: a point lookup copies one row
	err := n.run(x, func(row []types.Value) (bool, error) {
		if len(slab)+len(row) > cap(slab) {
			slab = make([]types.Value, 0, max(size, len(row)))
			size = min(2*size, collectSlab)
		}
		i := len(slab)
		slab = append(slab, row...)
		out = append(out, slab[i:len(slab):len(slab)]) // no spare capacity: appends never reach a neighbour
		return true, nil
	})
	return out, err
}

// collectSlab is the number of values collect allocates at once.
const collectSlab = 4096

// valuesNode produces fixed rows: an information_schema table, a CTE
// already computed, or the one empty row of a SELECT without FROM.
type valuesNode struct {
	columns []expr.Column
	rows    [][]types.Value
	label   string
}

func (n *valuesNode) cols() []expr.Column { return n.columns }
func (n *valuesNode) estimate() int64     { return int64(len(n.rows)) }
func (n *valuesNode) run(x *execCtx, fn rowFn) error {
	for _, r := range n.rows {
		if more, err := fn(r); err != nil || !more {
			return err
		}
	}
	return nil
}
func (n *valuesNode) explain(bool) (string, []relNode) {
	return fmt.Sprintf("VALUES %s (rows=%d)", n.label, len(n.rows)), nil
}

// filterNode keeps the rows for which cond is TRUE.
type filterNode struct {
	child relNode
	cond  expr.Compiled
	text  string
}

func (n *filterNode) cols() []expr.Column { return n.child.cols() }
func (n *filterNode) estimate() int64     { return max(1, n.child.estimate()/2) }
func (n *filterNode) run(x *execCtx, fn rowFn) error {
	return n.child.run(x, func(row []types.Value) (bool, error) {
		ok, err := x.truth(n.cond, row)
		if err != nil || !ok {
			return err == nil, err
		}
		return fn(row)
	})
}
func (n *filterNode) explain(bool) (string, []relNode) {
	return "FILTER " + n.text, []relNode{n.child}
}

// projectNode computes expressions over its input rows.
type projectNode struct {
	child   relNode
	exprs   []expr.Compiled
	columns []expr.Column
	texts   []string
	// reorder is set when the node only puts a join order's columns back
	// in FROM order (restoreOrder).
	reorder bool
}

func (n *projectNode) cols() []expr.Column { return n.columns }
func (n *projectNode) estimate() int64     { return n.child.estimate() }
func (n *projectNode) run(x *execCtx, fn rowFn) error {
	out := make([]types.Value, len(n.exprs))
	if copies := n.reorderCopies(); copies != nil {
		return n.child.run(x, func(row []types.Value) (bool, error) {
			for _, c := range copies {
				out[c[0]] = row[c[1]]
			}
			return fn(out)
		})
	}
	return n.child.run(x, func(row []types.Value) (bool, error) {
		for i, c := range n.exprs {
			v, err := c.Eval(row, x.ctx)
			if err != nil {
				return false, err
			}
			out[i] = v
		}
		return fn(out)
	})
}
func (n *projectNode) explain(bool) (string, []relNode) {
	return "PROJECT " + strings.Join(n.texts, ", "), []relNode{n.child}
}

// limitNode skips offset rows and stops after count more.
type limitNode struct {
	child         relNode
	count, offset int64
}

func (n *limitNode) cols() []expr.Column { return n.child.cols() }
func (n *limitNode) estimate() int64     { return min(n.count, n.child.estimate()) }
func (n *limitNode) run(x *execCtx, fn rowFn) error {
	if n.count == 0 {
		return nil
	}
	var seen int64
	return n.child.run(x, func(row []types.Value) (bool, error) {
		seen++
		if seen <= n.offset {
			return true, nil
		}
		more, err := fn(row)
		return more && seen < n.offset+n.count, err
	})
}
func (n *limitNode) explain(bool) (string, []relNode) {
	if n.offset > 0 {
		return fmt.Sprintf("LIMIT %d OFFSET %d", n.count, n.offset), []relNode{n.child}
	}
	return fmt.Sprintf("LIMIT %d", n.count), []relNode{n.child}
}

// sortNode orders its input.
type sortNode struct {
	child relNode
	order []orderSpec
	texts []string
}

func (n *sortNode) cols() []expr.Column { return n.child.cols() }
func (n *sortNode) estimate() int64     { return n.child.estimate() }
func (n *sortNode) run(x *execCtx, fn rowFn) error {
	s := spill.NewSorter(orderCompare(n.order), x.s.e.spill, x.s.queryMemory())
	defer s.Close()
	if err := n.child.run(x, func(row []types.Value) (bool, error) { return true, s.Add(row) }); err != nil {
		return err
	}
	err := s.Run(fn)
	x.s.e.spilled.Add(int64(s.Spilled))
	return err
}
func (n *sortNode) explain(bool) (string, []relNode) {
	return "SORT " + strings.Join(n.texts, ", "), []relNode{n.child}
}

// distinctNode drops rows whose first width values repeat an earlier row's.
type distinctNode struct {
	child relNode
	width int
}

func (n *distinctNode) cols() []expr.Column { return n.child.cols() }
func (n *distinctNode) estimate() int64     { return n.child.estimate() }
func (n *distinctNode) run(x *execCtx, fn rowFn) error {
	_, err := distinctRows(x, n.width, x.s.queryMemory(), 0, func(f rowFn) error { return n.child.run(x, f) }, fn)
	return err
}
func (n *distinctNode) explain(bool) (string, []relNode) {
	return "DISTINCT", []relNode{n.child}
}

// renameNode gives its input's columns new names and qualifiers (a derived
// table, CTE or view seen from the enclosing query).
type renameNode struct {
	child   relNode
	columns []expr.Column
	label   string
}

func (n *renameNode) cols() []expr.Column            { return n.columns }
func (n *renameNode) estimate() int64                { return n.child.estimate() }
func (n *renameNode) run(x *execCtx, fn rowFn) error { return n.child.run(x, fn) }
func (n *renameNode) explain(bool) (string, []relNode) {
	return n.label, []relNode{n.child}
}

func itoa(n int) string { return strconv.Itoa(n) }
