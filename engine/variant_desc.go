package engine

import (
	"sort"

	"loadgw/catalog"
	"loadgw/types"
)

// variantSubcolumns are the DESC rows Doris adds after VARIANT column c
// when describe_extend_variant_column is true: one per leaf path found in
// the column's rows ("v.a", "v.c.e"), sorted, with the type inferred from
// the values (CommonVariantType over the rows).
func (s *Session) variantSubcolumns(t *catalog.Table, c *catalog.Column) ([][]types.Value, error) {
	res, err := s.e.NewSession(t.DB).Execute("SELECT `" + c.Name + "` FROM `" + t.Name + "`")
	if err != nil {
		return nil, err
	}
	seen := map[string]string{}
	for _, row := range res.Rows {
		types.VariantPathTypesNested(row[0], c.Type.Variant != nil && c.Type.Variant.FlattenNested, func(path, typ string) {
			seen[path] = types.CommonVariantType(seen[path], typ)
		})
	}
	paths := make([]string, 0, len(seen))
	for p := range seen {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	rows := make([][]types.Value, 0, len(paths))
	for _, p := range paths {
		rows = append(rows, []types.Value{str(c.Name + "." + p), str(seen[p]), str("Yes"), str("false"), types.NullValue, str("NONE")})
	}
	return rows, nil
}
