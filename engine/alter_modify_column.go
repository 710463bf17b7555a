package engine

import (
	"fmt"
	"strings"

	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/types"
)

// modifyColumn applies the MODIFY COLUMNs of a value column that loadgw can
// apply without touching stored rows: a VARCHAR length grows (Doris's
// light schema change, ColumnType.checkForTypeLengthChange), or a number
// widens as Doris's ColumnType.schemaChangeMatrix allows (TINYINT ..
// LARGEINT, FLOAT, DOUBLE; a job that rewrites the data in Doris). Rows
// keep their stored values; the schema version records the new type and
// the row codec casts an older row's value on read. It reports false for
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
	if old.IsKey || nc.IsKey || old.Default != nil || nc.Default != nil || old.Agg != nc.Agg || old.AutoInc || nc.AutoInc {
		return false, nil
	}
	varchar := old.Type.Kind == types.Varchar && nc.Type.Kind == types.Varchar
	oldRank, oldNum := numericRank[old.Type.Kind]
	newRank, newNum := numericRank[nc.Type.Kind]
	switch {
	case varchar:
	case oldNum && newNum && newRank < oldRank:
		// ColumnType.schemaChangeMatrix allows only widening numbers.
		return true, errorf("Can not change %s to %s", dorisPrimitive(old.Type.Kind), dorisPrimitive(nc.Type.Kind))
	case oldNum && newNum:
		// Stored values keep their type; the codec casts them on read.
	default:
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
	if varchar && old.Type.Len > nc.Type.Len {
		return true, errorf("%s", fmt.Sprintf("Shorten type length is prohibited, srcType=%s, dstType=%s", old.Type.String(), nc.Type.String()))
	}
	old.Type = nc.Type
	if nc.Comment != "" {
		old.Comment = nc.Comment
	}
	return true, nil
}

// numericRank orders the number types that Doris's schema change matrix
// lets a column widen between: each may change to any later one.
var numericRank = map[types.Kind]int{
	types.TinyInt: 0, types.SmallInt: 1, types.Int: 2, types.BigInt: 3, types.LargeInt: 4, types.Float: 5, types.Double: 6,
}

// dorisPrimitive is Doris's PrimitiveType name of a number kind.
func dorisPrimitive(k types.Kind) string {
	return map[types.Kind]string{types.TinyInt: "TINYINT", types.SmallInt: "SMALLINT", types.Int: "INT", types.BigInt: "BIGINT",
		types.LargeInt: "LARGEINT", types.Float: "FLOAT", types.Double: "DOUBLE"}[k]
}
