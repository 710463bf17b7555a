package engine

import (
	"loadgw/catalog"
	"loadgw/types"
)

// The row store column. A table with "store_row_column" = "true" or
// "row_store_columns" has Doris's hidden __DORIS_ROW_STORE_COL__; loadgw
// builds its value on read from the row (catalog.RowCodec.AppendRowStore),
// so turning the row store on by ALTER TABLE SET shows it for every row at
// once, as Doris's schema change job that rewrites the rows does.

// ensureRowStoreColumn adds the row store column to t when its properties
// ask for one and it has none, after every other column.
func ensureRowStoreColumn(t *catalog.Table) {
	if !t.HasRowStore() {
		return
	}
	if c, _ := t.Column(catalog.RowStoreCol); c != nil {
		return
	}
	t.Columns = append(t.Columns, &catalog.Column{Name: catalog.RowStoreCol, Type: types.Type{Kind: types.String, Len: 2147483643},
		Hidden: true, Virtual: true, UID: t.NextUID})
	t.NextUID++
}

// alterRowStoreProp applies SchemaChangeHandler's rules to ALTER TABLE SET
// of store_row_column or row_store_columns (value as given, lower-cased
// for the boolean); other keys pass.
func alterRowStoreProp(t *catalog.Table, key, value string) error {
	if key != "store_row_column" && key != "row_store_columns" {
		return nil
	}
	if key == "store_row_column" && value == "false" {
		return errorf("Can not alter store_row_column from true to false currently")
	}
	if t.Keys != catalog.DupKeys && !t.MergeOnWrite() {
		return errorf("`store_row_column` only support duplicate model or mow model")
	}
	if key == "store_row_column" {
		// The whole row again: the column list no longer applies.
		delete(t.Properties, "row_store_columns")
	}
	return nil
}
