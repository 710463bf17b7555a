package engine

import (
	"slices"
	"strings"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// LATERAL VIEW: `FROM t LATERAL VIEW fn(args) v AS c1[, c2 ...]` joins each
// row of t with the rows the table-generating function fn generates from
// it (Doris's LogicalGenerate). Several lateral views nest: each one's
// arguments see the columns of t and of the lateral views before it.

// planLaterals stacks the LATERAL VIEW clauses of from over its source.
func (p *planner) planLaterals(src *source, from *sql.TableRef) (*source, error) {
	for _, lv := range from.Laterals {
		n, err := p.planLateral(src.node, lv)
		if err != nil {
			return nil, err
		}
		src.node = n
		for range len(n.columns) - len(n.child.cols()) {
			src.hidden = append(src.hidden, false)
		}
	}
	return src, nil
}

// planLateral binds one lateral view over child, following Doris's
// bindGenerate: with one column name the view has one column of the
// function's type; with several, a STRUCT result (several arrays zipped,
// posexplode, explode_map, or an array of STRUCTs exploded) is spread over
// the names, one field each, and a scalar result takes the first name.
func (p *planner) planLateral(child relNode, lv *sql.LateralView) (*generateNode, error) {
	call := &expr.Call{P: lv.P, Name: lv.Func, Args: lv.Args}
	f, err := expr.BindTableFunc(call, p.scope(child.cols(), "GENERATE"))
	if err != nil {
		return nil, err
	}
	n := &generateNode{child: child, fn: f, text: sql.FormatExpr(call) + " " + lv.Table + " AS " + strings.Join(lv.Columns, ", ")}
	cols := slices.Clone(child.cols())
	var fields []types.StructField
	switch {
	case len(lv.Columns) > 1 && f.Multi:
		fields = f.Fields
	case len(lv.Columns) > 1 && f.Type.Kind == types.Struct:
		fields = f.Type.Nested.Fields
		n.spread = true
	}
	if fields == nil {
		cols = append(cols, expr.Column{Name: lv.Columns[0], Table: lv.Table, Type: f.Type})
		n.pack = f.Multi
	} else {
		if len(lv.Columns) < len(fields) {
			return nil, errorf("lateral view %s names %d columns, but %s generates %d", lv.Table, len(lv.Columns), lv.Func, len(fields))
		}
		for i, fd := range fields {
			cols = append(cols, expr.Column{Name: lv.Columns[i], Table: lv.Table, Type: fd.Type})
		}
	}
	n.columns = cols
	return n, nil
}

// generateNode is a lateral view: each input row followed by each row the
// function generates from it.
type generateNode struct {
	child   relNode
	fn      *expr.TableFunc
	columns []expr.Column
	// pack: the function's fields form one STRUCT column; spread: the one
	// STRUCT value the function generates is spread over its fields.
	pack, spread bool
	text         string
}

func (n *generateNode) cols() []expr.Column { return n.columns }
func (n *generateNode) estimate() int64     { return 4 * n.child.estimate() }
func (n *generateNode) explain(bool) (string, []relNode) {
	return "LATERAL VIEW " + n.text, []relNode{n.child}
}

func (n *generateNode) run(x *execCtx, fn rowFn) error {
	width := len(n.child.cols())
	out := make([]types.Value, len(n.columns))
	structType := n.fn.Type
	return n.child.run(x, func(row []types.Value) (bool, error) {
		copy(out, row)
		return n.fn.Run(row, x.ctx, func(vals []types.Value) (bool, error) {
			// One input row may generate many: the statement's timeout and
			// cancellation are checked per generated row.
			if err := x.poll(); err != nil {
				return false, err
			}
			switch {
			case vals == nil:
				clear(out[width:])
			case n.pack:
				out[width] = types.Nested{Type: structType, Elems: slices.Clone(vals)}.Encode()
			case n.spread:
				clear(out[width:])
				if !vals[0].IsNull() {
					st, err := types.Decode(vals[0])
					if err != nil {
						return false, err
					}
					copy(out[width:], st.Elems)
				}
			default:
				copy(out[width:], vals)
			}
			return fn(out)
		})
	})
}

// pushGenerate moves a WHERE conjunct that reads no column of the lateral
// view below it; other conjuncts filter its output.
func (p *planner) pushGenerate(n *generateNode, c expr.Expr) (relNode, bool, error) {
	own := n.columns[len(n.child.cols()):]
	readsOwn := false
	expr.Walk(c, func(e expr.Expr) {
		if ref, ok := e.(*expr.ColumnRef); ok {
			if col, _ := lookupScope(&expr.Scope{Columns: own}, ref); col != nil {
				readsOwn = true
			}
		}
	})
	if !readsOwn {
		if _, err := expr.Bind(c, p.scope(n.child.cols(), "FILTER")); err == nil {
			child, ok, err := p.push(n.child, c)
			if err != nil {
				return nil, false, err
			}
			if ok {
				n.child = child
				return n, true, nil
			}
		}
	}
	cond, err := expr.Bind(c, p.scope(n.columns, "FILTER"))
	if err != nil {
		return n, false, nil
	}
	return &filterNode{child: n, cond: cond, text: expr.String(c)}, true, nil
}
