package expr

import (
	"fmt"
	"strings"

	"loadgw/types"
)

// Column is one slot of the row an expression is evaluated against.
type Column struct {
	// Name is the column name; lookups compare it case-insensitively, as
	// Doris does.
	Name string
	// Table is the table name or alias that qualifies the column (`t.a`).
	// Empty means the column can only be referenced unqualified.
	Table string
	// Type is the column type.
	Type types.Type
	// QualifiedOnly makes the column answer only qualified references
	// (`t.a`): the right side's columns of JOIN ... USING, which the
	// unqualified name means on the left side.
	QualifiedOnly bool
}

// Scope is what names resolve against when binding. Column i is row[i].
type Scope struct {
	// Columns lists the row's slots in order.
	Columns []Column
	// Clause names the plan node being bound ("PROJECT", "FILTER", "SORT",
	// "AGGREGATE", ...). It only shapes error texts the way Nereids does:
	// "Unknown column 'x' in 'table list' in PROJECT clause" and
	// "LOGICAL_FILTER can not contains AggregateFunction expression: sum(a)".
	// The default value ("") omits the clause from the unknown-column text and
	// reports aggregates as LOGICAL_PROJECT.
	Clause string
	// Agg maps an aggregate call (sum(a), count(*), ...) to a slot of the
	// aggregated row the expression is evaluated against. The query layer
	// sets it when binding the select list, HAVING and ORDER BY of an
	// aggregating query. The default value (nil) denies aggregate functions
	// with Doris's error.
	Agg func(call *Call) (idx int, t types.Type, err error)
	// Window binds a window expression to the value the query layer
	// computes for it, as Agg does for aggregates. The default value (nil)
	// denies window expressions with Doris's error.
	Window func(w *Window) (Compiled, error)
	// Subquery binds subquery expressions; nil rejects them.
	Subquery SubqueryFunc
	// Outer resolves correlated references; nil means there is no
	// enclosing query.
	Outer OuterFunc
	// Shared, when set, is asked first for every subexpression: when it
	// returns ok, its node stands for the subexpression (a subexpression
	// several expressions share, bound once; see Memo). The default value
	// (nil) binds every subexpression.
	Shared func(e Expr) (c Compiled, ok bool, err error)
}

// lookup resolves a column reference to its slot. Two matching slots make
// the reference ambiguous, with Nereids' text: "k is ambiguous: k#0, k#2."
// where the number after # is the slot's position (Nereids prints its
// expression ids, which number a statement's slots in the same order).
func (s *Scope) lookup(ref *ColumnRef) (int, types.Type, error) {
	var found []int
	if s != nil {
		for i := range s.Columns {
			c := &s.Columns[i]
			if !strings.EqualFold(c.Name, ref.Name) {
				continue
			}
			if ref.Table != "" && !strings.EqualFold(c.Table, ref.Table) || ref.Table == "" && c.QualifiedOnly {
				continue
			}
			found = append(found, i)
		}
	}
	switch len(found) {
	case 0:
		return 0, types.Type{}, s.unknownColumn(ref)
	case 1:
		return found[0], s.Columns[found[0]].Type, nil
	}
	slots := make([]string, len(found))
	for i, idx := range found {
		slots[i] = fmt.Sprintf("%s#%d", s.Columns[idx].Name, idx)
	}
	name := ref.Name
	if ref.Table != "" {
		name = ref.Table + "." + ref.Name
	}
	return 0, types.Type{}, fmt.Errorf("%s is ambiguous: %s.", name, strings.Join(slots, ", "))
}

func (s *Scope) unknownColumn(ref *ColumnRef) error {
	where := "table list"
	if ref.Table != "" {
		where = ref.Table
	}
	msg := fmt.Sprintf("Unknown column '%s' in '%s'", ref.Name, where)
	if s != nil && s.Clause != "" {
		msg += " in " + s.Clause + " clause"
	}
	return &Error{Msg: msg}
}

func (s *Scope) aggDenied(call *Call) error {
	clause := "PROJECT"
	if s != nil && s.Clause != "" {
		clause = s.Clause
	}
	return &Error{Msg: fmt.Sprintf("LOGICAL_%s can not contains AggregateFunction expression: %s", clause, String(call))}
}
