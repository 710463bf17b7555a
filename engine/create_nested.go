package engine

import (
	"strings"

	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/types"
)

// checkNestedColumn applies Doris's rules for ARRAY, MAP and STRUCT value
// columns (ColumnDefinition.validate): an Aggregate Key column takes only
// REPLACE or REPLACE_IF_NOT_NULL, and the default is NULL (or `[]` for an
// ARRAY).
func checkNestedColumn(cd *sql.ColumnDef, c *catalog.Column) error {
	k := cd.Type.Kind
	if !types.IsNested(k) {
		return nil
	}
	name := strings.ToUpper(k.String())
	if cd.AggType != "" && cd.AggType != "REPLACE" && cd.AggType != "REPLACE_IF_NOT_NULL" && !cd.Key {
		return errorf("%s column can't support aggregation %s", name, cd.AggType)
	}
	if cd.Default == nil || cd.Default.Kind == sql.DefaultNull {
		return nil
	}
	switch k {
	case types.Array:
		if cd.Default.Kind == sql.DefaultString && cd.Default.Text == "[]" {
			return nil
		}
		// Doris appends DefaultValue.ARRAY_EMPTY_DEFAULT_VALUE, an object
		// without toString; "[]" is what it stands for.
		return errorf("Array type column default value only support null or []")
	case types.Map:
		return errorf("Map type column default value just support null")
	}
	return errorf("Struct type column default value just support null")
}

// checkNestedDistribution rejects a nested hash distribution column with
// HashDistributionDesc.toDistributionInfo's texts.
func checkNestedDistribution(c *catalog.Column) error {
	switch c.Type.Kind {
	case types.Array:
		return errorf("Array Type should not be used in distribution column[%s].", c.Name)
	case types.Map:
		return errorf("Map Type should not be used in distribution column[%s].", c.Name)
	case types.Struct:
		return errorf("Struct Type should not be used in distribution column[%s].", c.Name)
	}
	return nil
}
