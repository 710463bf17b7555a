package engine

import (
	"sort"
	"strings"

	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/types"
)

// Secondary indexes (INVERTED, NGRAM_BF, BITMAP, ANN): CREATE INDEX, ALTER
// TABLE ADD INDEX and DROP INDEX record them with Doris's name, column and
// duplicate checks and texts (SchemaChangeHandler.processAddIndex,
// checkDuplicateIndexes, processDropIndex) for SHOW INDEX and SHOW CREATE
// TABLE. Single-column INVERTED indexes without a parser on integer, date,
// datetime, decimal and string columns of Duplicate Key tables are built
// and used by scans (index_build.go, index_lookup.go); every other index,
// and every index of a Unique or Aggregate Key table, stays a declaration
// and queries read the table. IndexDefinition.checkColumn's rules of which
// column types and key models each index kind allows are not applied.

// createIndex is CREATE INDEX ... ON t: ALTER TABLE t ADD INDEX.
func (s *Session) createIndex(st *sql.CreateIndex) (*Result, error) {
	return s.alterTable(&sql.AlterTable{Span: st.Span, Table: st.Table, Ops: []sql.AlterOp{&sql.AddIndex{Index: st.Index}}})
}

// dropIndex is DROP INDEX name ON t: ALTER TABLE t DROP INDEX name.
func (s *Session) dropIndex(st *sql.DropIndex) (*Result, error) {
	return s.alterTable(&sql.AlterTable{Span: st.Span, Table: st.Table, Ops: []sql.AlterOp{&sql.DropIndexOp{IfExists: st.IfExists, Name: st.Name}}})
}

// addIndex adds the declaration of d to t.
func addIndex(t *catalog.Table, d *sql.IndexDef) error {
	typ := d.Using
	if typ == "" {
		typ = "INVERTED" // IndexDefinition's default
	}
	props := map[string]string{}
	for _, p := range d.Properties {
		props[p.Key] = p.Value
	}
	cols := make([]string, len(d.Columns))
	for i, name := range d.Columns {
		c, _ := t.Column(name)
		if c == nil {
			return errorf("index column does not exist in table. invalid column: %s", name)
		}
		cols[i] = c.Name // the table's spelling, as Doris
		if err := checkAddIndexFieldPattern(props); err != nil {
			return err
		}
	}
	for _, ix := range t.Indexes {
		if strings.EqualFold(ix.Name, d.Name) {
			if d.IfNotExists {
				return nil // Doris logs it and changes nothing
			}
			return errorf("index `%s` already exist.", d.Name)
		}
		if !strings.EqualFold(indexType(ix), typ) || !sameIndexColumns(ix.Columns, cols) {
			continue
		}
		if len(cols) == 1 {
			c, _ := t.Column(cols[0])
			if types.IsString(c.Type.Kind) || c.Type.Kind == types.Variant {
				if analyzed(ix.Properties) == analyzed(props) {
					kind := "non-analyzed"
					if analyzed(props) {
						kind = "analyzed"
					}
					return errorf("%s index for column (%s) with %s type already exists.", typ, d.Columns[0], kind)
				}
				continue
			}
			return errorf("%s index for column (%s) already exists.", typ, d.Columns[0])
		}
		return errorf("%s index for columns (%s) already exist.", typ, strings.Join(d.Columns, ","))
	}
	ix := catalog.Index{Name: d.Name, Columns: cols, Type: typ}
	if len(props) > 0 {
		ix.Properties = props
	}
	if d.Comment != nil {
		ix.Comment = *d.Comment
	}
	t.Indexes = append(t.Indexes, ix)
	return nil
}

// dropIndexDecl removes the declaration named name from t.
func dropIndexDecl(t *catalog.Table, op *sql.DropIndexOp) error {
	for i, ix := range t.Indexes {
		if strings.EqualFold(ix.Name, op.Name) {
			if err := checkDropIndexFieldPattern(ix); err != nil {
				return err
			}
			t.Indexes = append(t.Indexes[:i:i], t.Indexes[i+1:]...)
			return nil
		}
	}
	if op.IfExists {
		return nil
	}
	return errorf("index %s does not exist", op.Name)
}

func indexType(ix catalog.Index) string {
	if ix.Type == "" {
		return "INVERTED"
	}
	return strings.ToUpper(ix.Type)
}

// sameIndexColumns compares column sets without case (a TreeSet of
// CASE_INSENSITIVE_ORDER in Doris).
func sameIndexColumns(a, b []string) bool {
	set := map[string]bool{}
	for _, c := range a {
		set[strings.ToLower(c)] = true
	}
	other := map[string]bool{}
	for _, c := range b {
		other[strings.ToLower(c)] = true
	}
	if len(set) != len(other) {
		return false
	}
	for c := range other {
		if !set[c] {
			return false
		}
	}
	return true
}

// analyzed reports whether an inverted index tokenizes its text: a parser
// other than none (InvertedIndexUtil).
func analyzed(props map[string]string) bool {
	p := strings.ToLower(props["parser"])
	return p != "" && p != "none"
}

// indexRows are SHOW INDEX's rows of t, as ShowIndexCommand.
func indexRows(t *catalog.Table) [][]types.Value {
	var rows [][]types.Value
	for _, ix := range t.Indexes {
		rows = append(rows, strRow(t.Name, "", ix.Name, "", strings.Join(ix.Columns, ","), "", "", "", "", "",
			indexType(ix), ix.Comment, indexPropsString(ix.Properties)))
	}
	return rows
}

// indexPropsString is Index.getPropertiesString: ("k" = "v", ...) sorted
// by key, or "".
func indexPropsString(props map[string]string) string {
	if len(props) == 0 {
		return ""
	}
	return "(" + strings.Join(quotedProps(props), ", ") + ")"
}

// quotedProps is props as `"k" = "v"` entries sorted by key, the form of
// Doris's PROPERTIES clauses.
func quotedProps(props map[string]string) []string {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = `"` + k + `" = "` + props[k] + `"`
	}
	return out
}
