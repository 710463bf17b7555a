package engine

import (
	"fmt"
	"strconv"
	"strings"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// numbersNode is the numbers("number" = "N" [, "const_value" = "c"])
// table function (NumbersTableValuedFunction): one BIGINT NOT NULL column
// `number`, 0..N-1, or N copies of c. Rows are generated as they are read,
// so N costs time (bounded by the query's timeout), not memory.
type numbersNode struct {
	columns []expr.Column
	n       int64
	konst   *int64
}

func (n *numbersNode) cols() []expr.Column { return n.columns }
func (n *numbersNode) estimate() int64     { return max(n.n, 0) }
func (n *numbersNode) run(x *execCtx, fn rowFn) error {
	for i := int64(0); i < n.n; i++ {
		if i%1024 == 0 {
			if err := x.poll(); err != nil {
				return err
			}
		}
		v := i
		if n.konst != nil {
			v = *n.konst
		}
		if more, err := fn([]types.Value{types.NewInt(types.BigInt, v)}); err != nil || !more {
			return err
		}
	}
	return nil
}
func (n *numbersNode) explain(bool) (string, []relNode) {
	return fmt.Sprintf("NUMBERS (rows=%d)", n.n), nil
}

func (p *planner) planNumbers(from *sql.TableRef) (*source, error) {
	node := &numbersNode{}
	seen := false
	for _, a := range from.FuncArgs {
		switch strings.ToLower(a.Key) {
		case "number":
			v, err := strconv.ParseInt(a.Value, 10, 64)
			if err != nil {
				return nil, errorf("cannot parse param value %s", a.Value)
			}
			node.n, seen = v, true
		case "const_value":
			v, err := strconv.ParseInt(a.Value, 10, 64)
			if err != nil {
				return nil, errorf("cannot parse param value %s", a.Value)
			}
			node.konst = &v
		}
	}
	if !seen {
		return nil, errorf("number not set")
	}
	qual := "numbers"
	if from.Alias != "" {
		qual = from.Alias
	}
	node.columns = []expr.Column{{Name: "number", Table: qual, Type: types.Type{Kind: types.BigInt}}}
	return &source{node: node, hidden: []bool{false}}, nil
}
