package engine

import "loadgw/types"

// hideObjects shows the values of HLL, BITMAP and QUANTILE_STATE result
// columns as NULL, as Doris does unless return_object_data_as_binary is set.
func hideObjects(cols []Column, rows [][]types.Value) {
	idx := objectColumns(cols)
	if idx == nil {
		return
	}
	for _, r := range rows {
		for _, i := range idx {
			r[i] = types.NullValue
		}
	}
}

// objectColumns lists the result columns of an object type (nil: none).
func objectColumns(cols []Column) []int {
	var idx []int
	for i, c := range cols {
		if isHiddenResultType(c.Type) {
			idx = append(idx, i)
		}
	}
	return idx
}
