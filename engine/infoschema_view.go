package engine

import (
	"loadgw/catalog"
	"loadgw/types"
)

// eachView calls fn for every view, by database and name.
func (s *Session) eachView(fn func(v *catalog.View)) {
	for _, dbName := range s.e.cat.Databases() {
		d, ok := s.e.cat.Database(dbName)
		if !ok {
			continue
		}
		for _, n := range d.ViewNames() {
			fn(d.Views[n])
		}
	}
}

// viewTableRows are the information_schema.tables rows of the views:
// TABLE_TYPE VIEW, ENGINE View.
func (s *Session) viewTableRows() [][]types.Value {
	var rows [][]types.Value
	s.eachView(func(v *catalog.View) {
		rows = append(rows, s.tablesRow(v.DB, v.Name, "VIEW", "View", v.CreateTime, v.Comment))
	})
	return rows
}

// infoViews is information_schema.views, with the values Doris's schema
// scanner fills in: CHECK_OPTION NONE, IS_UPDATABLE NO, SECURITY_TYPE
// DEFINER, utf8 for both character set columns.
func (s *Session) infoViews() *infoTable {
	it := &infoTable{cols: []Column{
		col("TABLE_CATALOG", varcharType), col("TABLE_SCHEMA", varcharType), col("TABLE_NAME", varcharType),
		col("VIEW_DEFINITION", varcharType), col("CHECK_OPTION", varcharType), col("IS_UPDATABLE", varcharType),
		col("DEFINER", varcharType), col("SECURITY_TYPE", varcharType), col("CHARACTER_SET_CLIENT", varcharType),
		col("COLLATION_CONNECTION", varcharType),
	}}
	s.eachView(func(v *catalog.View) {
		it.rows = append(it.rows, []types.Value{
			str("internal"), str(v.DB), str(v.Name), str(v.Query), str("NONE"), str("NO"),
			str("root@%"), str("DEFINER"), str("utf8"), types.NullValue,
		})
	})
	return it
}
