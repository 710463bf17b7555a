package engine

import (
	"fmt"
	"strings"

	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/types"
)

// modifyColumn applies the MODIFY COLUMN that Doris runs as a light schema
// change and loadgw can apply without touching stored rows: a value
// column's VARCHAR length grows (SchemaChangeHandler.processModifyColumn
// with ColumnType.checkForTypeLengthChange). Rows keep their stored
// strings; the schema version records the new type. It reports false for
// the other MODIFY COLUMNs, which loadgw does not run yet.
func modifyColumn(s *Session, t *catalog.Table, op *sql.ModifyColumn) (bool, error) {
	if op.Position != nil || op.Rollup != "" || len(op.Properties) > 0 {
		return false, nil
	}
	old, _ := t.Column(op.Column.Name)
	if old == nil || old.Hidden {
		return true, errorf("Column[%s] does not exists", op.Column.Name)
	}
	nc, err := buildColumn(op.Column, s)
	if err != nil {
		return true, err
	}
	if old.IsKey || nc.IsKey || old.Type.Kind != types.Varchar || nc.Type.Kind != types.Varchar ||
		old.Default != nil || nc.Default != nil || old.Agg != nc.Agg || old.AutoInc || nc.AutoInc {
		return false, nil
	}
	for _, ck := range t.ClusterBy {
		if strings.EqualFold(ck, old.Name) {
			return true, errorf("Can not modify cluster key column: %s", old.Name)
		}
	}
	if old.Nullable && !nc.Nullable {
		return true, errorf("Can not change from nullable to non-nullable")
	}
	if old.Nullable != nc.Nullable {
		return false, nil
	}
	if old.Type.Len > nc.Type.Len {
		return true, errorf("%s", fmt.Sprintf("Shorten type length is prohibited, srcType=%s, dstType=%s", old.Type.String(), nc.Type.String()))
	}
	old.Type = nc.Type
	if nc.Comment != "" {
		old.Comment = nc.Comment
	}
	return true, nil
}
