package engine

import (
	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/types"
)

// The column rules of Doris's object types HLL, BITMAP and QUANTILE_STATE
// (Nereids ColumnDefinition.validate and AggregateType.checkCompatibility):
// never keys, NOT NULL by default and always, and in an Aggregate Key table
// only with their union (or REPLACE).

// isObjectType reports whether t is HLL, BITMAP or QUANTILE_STATE.
func isObjectType(t types.Type) bool {
	switch t.Kind {
	case types.HLL, types.Bitmap, types.QuantileState:
		return true
	}
	return false
}

// objectAgg is the union aggregate of each object type.
var objectAgg = map[types.Kind]string{
	types.HLL: "HLL_UNION", types.Bitmap: "BITMAP_UNION", types.QuantileState: "QUANTILE_UNION",
}

// checkObjectColumn checks one column definition against those rules.
func checkObjectColumn(cd *sql.ColumnDef, c *catalog.Column) error {
	if isObjectType(cd.Type) {
		if cd.Key {
			return errorf("Key column can not set complex type:%s", c.Name)
		}
		if c.Nullable {
			return errorf("complex type column must be not nullable, column:%s", c.Name)
		}
		if cd.Type.Kind == types.HLL && cd.Default != nil {
			return errorf("Hll type column can not set default value")
		}
	}
	return checkAggCompatible(c)
}

// checkAggCompatible rejects an aggregate type the column's type does not
// take: the unions only their own type, SUM/MIN/MAX no object type.
func checkAggCompatible(c *catalog.Column) error {
	agg := c.Agg
	if agg == "" || agg == "REPLACE" || agg == "REPLACE_IF_NOT_NULL" || agg == "NONE" {
		return nil
	}
	own, isObj := objectAgg[c.Type.Kind]
	ok := agg == own
	if !isObj {
		switch agg {
		case "HLL_UNION", "BITMAP_UNION", "QUANTILE_UNION":
		default:
			return nil // SUM/MIN/MAX over plain types are checked elsewhere
		}
	}
	if ok {
		return nil
	}
	return errorf("Aggregate type %s is not compatible with primitive type %s", agg, types.NereidsName(c.Type))
}

// checkObjectAggKeys is the Aggregate Key table's rule: an object column
// must name its aggregate.
func checkObjectAggKeys(c *catalog.Column) error {
	if isObjectType(c.Type) && c.Agg == "" {
		return errorf("complex type have to use aggregate function: %s", c.Name)
	}
	return nil
}
