package engine

import "loadgw/catalog"

// insertSeqByMapped reports whether a partial update by INSERT carries the
// sequence value only through the column the sequence column maps to: then
// the rows of one key are applied in statement order, not by sequence value
// (Doris's test_partial_update_insert_seq_col: of (3, 1500, '2022-07-20')
// and (3, 2500, '2022-07-18') in one INSERT, the second is the row).
func insertSeqByMapped(t *catalog.Table, provided []bool) bool {
	_, mapped := t.Sequence()
	return mapped >= 0 && provided != nil && provided[mapped]
}
