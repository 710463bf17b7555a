package engine

import (
	"strconv"
	"strings"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// errOnlyMetricType is Doris's Type.OnlyMetricTypeErrorMsg, raised by
// CheckAfterRewrite when a VARIANT value is grouped or sorted by.
const errOnlyMetricType = "Doris hll, bitmap, array, map, struct, jsonb, variant column must use with specific function, and don't" +
	" support filter, group by or order by. please run 'help hll' or 'help bitmap' or 'help array'" +
	" or 'help map' or 'help struct' or 'help jsonb' or 'help variant' in your mysql client."

// checkSortable rejects a GROUP BY or ORDER BY key Doris cannot compare:
// a VARIANT (cast a subcolumn to a scalar type first).
func checkSortable(c expr.Compiled) error {
	if c.Type().Kind == types.Variant {
		return errorf(errOnlyMetricType)
	}
	return nil
}

// checkVariantColumnDef applies ColumnDefinition.validate's rule for JSON
// and VARIANT columns: no default other than NULL.
func checkVariantColumnDef(cd *sql.ColumnDef) error {
	k := cd.Type.Kind
	if (k == types.JSON || k == types.Variant) && cd.Default != nil && cd.Default.Kind != sql.DefaultNull {
		return errorf("Json or Variant type column default value just support null")
	}
	return nil
}

// checkVariantColumnName is CreateTableInfo's rule that a VARIANT column's
// name has no '.', which would clash with subcolumn paths.
func checkVariantColumnName(cd *sql.ColumnDef) error {
	if cd.Type.Kind == types.Variant && strings.Contains(cd.Name, ".") {
		return errorf("Disable to create table of `VARIANT` type column named with a `.` character: %s", strings.ToUpper(cd.Name))
	}
	return nil
}

// checkVariantDistribution is InternalCatalog.createOlapTable's rule that
// no hash distribution column is a VARIANT.
func checkVariantDistribution(c *catalog.Column) error {
	if c.Type.Kind == types.Variant {
		return errorf("Hash distribution info should not contain variant columns")
	}
	return nil
}

// checkVariantLightSchemaChange is InternalCatalog.createOlapTable's rule
// that a table with a VARIANT column keeps light schema change on.
func checkVariantLightSchemaChange(t *catalog.Table) error {
	if t.Properties["light_schema_change"] == "true" {
		return nil
	}
	for _, c := range t.Columns {
		if c.Type.Kind == types.Variant {
			return errorf("Variant type rely on light schema change,  please use light_schema_change = true.")
		}
	}
	return nil
}

// resolveVariantType gives a VARIANT column's properties that were not
// written the session's default_variant_* values, as Doris's
// visitVariantPredefinedFields reads them when it builds the type.
func (s *Session) resolveVariantType(t types.Type) types.Type {
	if t.Kind != types.Variant {
		return t
	}
	num := func(name string, def int) int {
		if n, err := strconv.Atoi(s.Var(name)); err == nil {
			return n
		}
		return def
	}
	return types.ResolveVariant(t, types.VariantDefaults{
		MaxSubcolumns:      num("default_variant_max_subcolumns_count", 0),
		TypedPathsToSparse: s.Var("default_variant_enable_typed_paths_to_sparse") == "true",
		SparseStatsSize:    num("default_variant_max_sparse_column_statistics_size", types.DefaultVariantSparseStatsSize),
		SparseHashShards:   num("default_variant_sparse_hash_shard_count", 0),
	})
}

// variantFlattenNested marks a VARIANT column type of a table with
// variant_enable_flatten_nested = true, which its loads read
// (types.VariantDef.FlattenNested).
func variantFlattenNested(t *catalog.Table, typ types.Type) types.Type {
	if typ.Kind != types.Variant || t.Properties["variant_enable_flatten_nested"] != "true" {
		return typ
	}
	d := types.VariantDef{SparseStatsSize: types.DefaultVariantSparseStatsSize}
	if typ.Variant != nil {
		d = *typ.Variant
	}
	d.FlattenNested = true
	typ.Variant = &d
	return typ
}

// indexFieldPattern is InvertedIndexUtil's "field_pattern" property: an
// index on the predefined paths of a VARIANT column that match it.
const indexFieldPattern = "field_pattern"

// checkVariantIndexPatterns is CreateTableInfo's check that an index's
// field_pattern names a predefined field of its VARIANT column.
func checkVariantIndexPatterns(t *catalog.Table) error {
	for _, ix := range t.Indexes {
		pat := ix.Properties[indexFieldPattern]
		if pat == "" {
			continue
		}
		for _, name := range ix.Columns {
			c, _ := t.Column(name)
			if c == nil || c.Type.Kind != types.Variant {
				continue
			}
			found := false
			if c.Type.Variant != nil {
				for _, f := range c.Type.Variant.Fields {
					found = found || f.Pattern == pat
				}
			}
			if !found {
				return errorf("can not find field pattern: %s in column: %s", pat, c.Name)
			}
		}
	}
	return nil
}

// checkAddIndexFieldPattern is SchemaChangeHandler.processAddIndex's rule:
// an index with a field_pattern is only declared with the table.
func checkAddIndexFieldPattern(props map[string]string) error {
	if props[indexFieldPattern] != "" {
		return errorf("Can not create index with field pattern")
	}
	return nil
}

// checkDropIndexFieldPattern is processDropIndex's rule: an index with a
// field_pattern cannot be dropped.
func checkDropIndexFieldPattern(ix catalog.Index) error {
	if ix.Properties[indexFieldPattern] != "" {
		return errorf("Can not drop index with field pattern")
	}
	return nil
}
