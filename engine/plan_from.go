package engine

import (
	"strings"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/storage"
	"loadgw/ttl"
)

// planFrom plans one relation of FROM. This is the one place that tells
// the kinds of source apart: joins, derived tables, change feeds (binlog(),
// t@incr), table functions, WITH names, information_schema tables, views,
// tables and their history (FOR ... AS OF).
func (p *planner) planFrom(from *sql.TableRef) (*source, error) {
	src, err := p.planFromKind(from)
	if err != nil || from.Join != nil {
		return src, err
	}
	if len(src.node.cols()) > 0 {
		src.quals = []string{strings.ToLower(src.node.cols()[0].Table)}
	}
	if len(from.Laterals) > 0 {
		return p.planLaterals(src, from)
	}
	return src, nil
}

func (p *planner) planFromKind(from *sql.TableRef) (*source, error) {
	if sm := p.streamRef(from); sm != nil {
		return p.planStream(from, sm)
	}
	switch {
	case from.Join != nil:
		return p.planJoin(from.Join)
	case from.Subquery != nil:
		if from.Alias == "" {
			return nil, errorf("Every derived table must have its own alias")
		}
		return p.planDerived(from.Subquery, derivedName(from), from.AliasColumns)
	case from.Func == "binlog" || (from.Func == "" && from.ScanParams != nil && strings.EqualFold(from.ScanParams.Name, "incr")):
		if err := p.checkTTLRead(from); err != nil {
			return nil, err
		}
		return p.planChanges(from)
	case from.Func == "backends":
		return p.planBackends(from)
	case from.Func == "numbers":
		return p.planNumbers(from)
	case from.Func != "":
		return nil, errorf("Table function %s is not supported yet", from.Func)
	case from.ScanParams != nil:
		return nil, errorf("%s query is not supported yet", strings.ToUpper(from.ScanParams.Name))
	}
	if from.Table.DB == "" {
		if c := p.ctes.find(from.Table.Name); c != nil {
			return p.planCTE(c, from)
		}
	}
	if isInfoSchema(from.Table.DB) || (from.Table.DB == "" && isInfoSchema(p.s.db)) {
		return p.planInfoSchema(from)
	}
	if v, ok, err := p.s.lookupView(from.Table); err != nil || ok {
		if err != nil {
			return nil, err
		}
		return p.planView(v, from)
	}
	if err := p.checkTTLRead(from); err != nil {
		return nil, err
	}
	return p.planTable(from)
}

// derivedName is the qualifier of a derived table's columns.
func derivedName(from *sql.TableRef) string {
	return from.Alias
}

// checkTTLRead applies the TTL feature's read restrictions to incremental
// and snapshot reads of a table.
func (p *planner) checkTTLRead(from *sql.TableRef) error {
	if from.Func != "" {
		return nil
	}
	t, err := p.s.lookupTable(from.Table)
	if err != nil {
		return nil // planning the source reports it
	}
	return ttl.CheckRead(t, ttl.Read{
		Incr: from.ScanParams != nil && strings.EqualFold(from.ScanParams.Name, "incr"),
		AsOf: from.VersionAsOf != nil || from.TimeAsOf != nil,
	})
}

func (p *planner) planInfoSchema(from *sql.TableRef) (*source, error) {
	it, ok := p.s.infoSchemaTable(from.Table.Name)
	if !ok {
		return nil, errorf("Table [%s] does not exist in database [%s].", from.Table.Name, infoSchema)
	}
	qual := from.Table.Name
	if from.Alias != "" {
		qual = from.Alias
	}
	n := &valuesNode{rows: it.rows, label: infoSchema + "." + strings.ToLower(from.Table.Name)}
	for _, c := range it.cols {
		n.columns = append(n.columns, expr.Column{Name: c.Name, Table: qual, Type: c.Type})
	}
	return &source{node: n, hidden: make([]bool, len(n.columns))}, nil
}

func (p *planner) planTable(from *sql.TableRef) (*source, error) {
	t, err := p.s.lookupTable(from.Table)
	if err != nil {
		return nil, err
	}
	qual := t.Name
	if from.Alias != "" {
		qual = from.Alias
	}
	// Hidden columns are addressable by name, as in Doris; only * leaves
	// them out without show_hidden_columns.
	show := p.s.ShowHidden()
	var cols []expr.Column
	hidden := make([]bool, 0, len(t.Columns))
	for _, c := range t.Columns {
		cols = append(cols, expr.Column{Name: c.Name, Table: qual, Type: c.Type})
		hidden = append(hidden, c.Hidden && !show)
	}
	if from.VersionAsOf != nil || from.TimeAsOf != nil {
		src, err := p.planAsOf(from, t, cols)
		if err != nil {
			return nil, err
		}
		src.hidden = hidden
		return src, nil
	}
	sc := &scanNode{t: t, columns: cols, alias: qual, rowsOf: func() int64 { return p.s.tableRowsEstimate(t) },
		sample: func(n *scanNode) (float64, bool) { return p.s.sampleFilter(n, p.st.ctx) }}
	return &source{node: sc, hidden: hidden, tables: []*catalog.Table{t}, scans: []*scanNode{sc}}, nil
}

// planDerived plans a query read as a relation: its columns take the
// query's result names (or names, when given) and the qualifier qual.
func (p *planner) planDerived(q *sql.Select, qual string, names []string) (*source, error) {
	qp, err := p.planQuery(q)
	if err != nil {
		return nil, err
	}
	if len(names) > len(qp.out) {
		return nil, errorf("CTE [%s] returns %d columns, but %d labels were specified. The number of column labels must be smaller or equal to the number of returned columns.", qual, len(names), len(qp.out))
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[strings.ToLower(n)] {
			return nil, errorf("Duplicated CTE column alias: [%s] in CTE [%s]", strings.ToLower(n), qual)
		}
		seen[strings.ToLower(n)] = true
	}
	cols := make([]expr.Column, len(qp.out))
	for i, c := range qp.out {
		name := c.Name
		if i < len(names) {
			name = names[i]
		}
		cols[i] = expr.Column{Name: name, Table: qual, Type: c.Type}
	}
	label := "SUBQUERY"
	if qual != "" {
		label += " " + qual
	}
	return &source{node: &renameNode{child: qp.root, columns: cols, label: label}, hidden: make([]bool, len(cols))}, nil
}

// planCTE plans a reference to a WITH name; each reference plans the
// query again (a CTE used twice is read twice).
func (p *planner) planCTE(c *cteScope, from *sql.TableRef) (*source, error) {
	qual := c.cte.Name
	if from.Alias != "" {
		qual = from.Alias
	}
	np := *p
	np.outer, np.ctes = nil, c.ctes
	src, err := np.planDerived(c.cte.Query, qual, c.cte.Columns)
	if err != nil {
		return nil, err
	}
	if rn, ok := src.node.(*renameNode); ok {
		rn.label = "CTE " + c.cte.Name
		if qual != c.cte.Name {
			rn.label += " AS " + qual
		}
	}
	return src, nil
}

// tableRowsEstimate guesses a table's rows from the size of its key range
// on disk (rows still in memory count as 1000 rows). It only orders joins.
func (s *Session) tableRowsEstimate(t *catalog.Table) int64 {
	prefix := s.e.Codec(t).Prefix()
	size, err := s.e.db.DiskUsage(prefix, storage.PrefixEnd(prefix))
	if err != nil || size == 0 {
		return 1000
	}
	return max(int64(size)/int64(16+8*len(t.Columns)), 1000)
}
