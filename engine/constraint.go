package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/types"
)

// Informational constraints follow Doris's AddConstraintCommand,
// DropConstraintCommand, ShowConstraintsCommand and TableIf's constraint
// methods: recorded, shown, never checked against the data.

// constraintColumns resolves the columns as a query's select list would,
// with the analyzer's text for an unknown one.
func constraintColumns(t *catalog.Table, names []string) ([]string, error) {
	out := make([]string, len(names))
	for i, n := range names {
		c, _ := t.Column(n)
		if c == nil || c.Hidden {
			return nil, errorf("Unknown column '%s' in 'table list' in PROJECT clause", n)
		}
		out[i] = c.Name
	}
	return out, nil
}

// sameColumnSet is Doris's equality of the column sets of two primary key
// or unique constraints.
func sameColumnSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

func sameConstraint(a, b catalog.Constraint) bool {
	if a.Kind != b.Kind {
		return false
	}
	if a.Kind == "FOREIGN KEY" {
		return slices.Equal(a.Columns, b.Columns) && slices.Equal(a.RefColumns, b.RefColumns) &&
			a.RefTableID == b.RefTableID
	}
	return sameColumnSet(a.Columns, b.Columns)
}

// constraintText is Doris's Constraint.toString; ref is the referenced
// table of a FOREIGN KEY.
func constraintText(c catalog.Constraint, ref *catalog.Table) string {
	cols := strings.Join(c.Columns, ", ")
	if c.Kind == "FOREIGN KEY" {
		return fmt.Sprintf("FOREIGN KEY (%s) REFERENCES %s.%s (%s)", cols, ref.DB, ref.Name, strings.Join(c.RefColumns, ", "))
	}
	return c.Kind + " (" + cols + ")"
}

func (s *Session) addConstraint(tx *catalog.Tx, t *catalog.Table, op *sql.AddConstraint) error {
	cols, err := constraintColumns(t, op.Columns)
	if err != nil {
		return err
	}
	c := catalog.Constraint{Name: op.Name, Kind: op.Kind, Columns: cols}
	var ref *catalog.Table
	if op.Kind == "FOREIGN KEY" {
		db, err := s.dbName(op.RefTable.DB)
		if err != nil {
			return err
		}
		d, ok := tx.Database(db)
		if !ok {
			return errorf("Database [%s] does not exist.", db)
		}
		if db == t.DB && op.RefTable.Name == t.Name {
			ref = t
		} else if ref = d.Tables[op.RefTable.Name]; ref == nil {
			return errorf("Table [%s] does not exist in database [%s].", op.RefTable.Name, db)
		}
		if c.RefColumns, err = constraintColumns(ref, op.RefColumns); err != nil {
			return err
		}
		c.RefTableID = ref.ID
	}
	for _, o := range t.Constraints {
		if o.Name == c.Name {
			return errorf("Constraint name %s has existed", c.Name)
		}
	}
	for _, o := range t.Constraints {
		if sameConstraint(o, c) {
			return errorf("Constraint %s has existed, named %s", constraintText(c, ref), o.Name)
		}
	}
	if ref != nil {
		found := slices.ContainsFunc(ref.Constraints, func(o catalog.Constraint) bool {
			return o.Kind == "PRIMARY KEY" && sameColumnSet(o.Columns, c.RefColumns)
		})
		if !found {
			return errorf("Foreign key constraint requires a primary key constraint [%s] in %s", strings.Join(c.RefColumns, ", "), ref.Name)
		}
	}
	t.Constraints = append(t.Constraints, c)
	return nil
}

// dropConstraint removes the constraint; dropping a primary key also
// drops the foreign keys of other tables that reference it, as Doris's
// dropFKReferringPK does.
func dropConstraint(tx *catalog.Tx, t *catalog.Table, name string) error {
	i := slices.IndexFunc(t.Constraints, func(c catalog.Constraint) bool { return c.Name == name })
	if i < 0 {
		return errorf("Unknown constraint %s on table %s.", name, t.Name)
	}
	pk := t.Constraints[i]
	t.Constraints = slices.Delete(t.Constraints, i, i+1)
	if pk.Kind != "PRIMARY KEY" {
		return nil
	}
	refers := func(c catalog.Constraint) bool {
		return c.Kind == "FOREIGN KEY" && c.RefTableID == t.ID && sameColumnSet(c.RefColumns, pk.Columns)
	}
	t.Constraints = slices.DeleteFunc(t.Constraints, refers)
	for _, db := range tx.DatabaseNames() {
		d, _ := tx.Database(db)
		for name, o := range d.Tables {
			if o.ID == t.ID || !slices.ContainsFunc(o.Constraints, refers) {
				continue
			}
			o = o.Clone()
			o.Constraints = slices.DeleteFunc(o.Constraints, refers)
			d.Tables[name] = o
		}
	}
	return nil
}

func (s *Session) showConstraints(st *sql.ShowConstraints) (*Result, error) {
	t, err := s.lookupTable(st.Table)
	if err != nil {
		return nil, err
	}
	varchar20 := types.Type{Kind: types.Varchar, Len: 20}
	res := &Result{ResultSet: true, Columns: []Column{
		{Name: "Name", Type: varchar20}, {Name: "Type", Type: varchar20}, {Name: "Definition", Type: varchar20},
	}}
	cs := slices.Clone(t.Constraints)
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	for _, c := range cs {
		var ref *catalog.Table
		if c.Kind == "FOREIGN KEY" {
			if ref = s.e.tableByID(c.RefTableID); ref == nil {
				continue // its table went with a DROP DATABASE
			}
		}
		res.Rows = append(res.Rows, []types.Value{str(c.Name), str(c.Kind), str(constraintText(c, ref))})
	}
	return res, nil
}

// dropReferences removes, as Doris does when a table is dropped, the
// foreign keys of other tables that reference table id.
func dropReferences(tx *catalog.Tx, id int64) {
	refers := func(c catalog.Constraint) bool { return c.Kind == "FOREIGN KEY" && c.RefTableID == id }
	for _, db := range tx.DatabaseNames() {
		d, _ := tx.Database(db)
		for name, o := range d.Tables {
			if !slices.ContainsFunc(o.Constraints, refers) {
				continue
			}
			o = o.Clone()
			o.Constraints = slices.DeleteFunc(o.Constraints, refers)
			d.Tables[name] = o
		}
	}
}
