package mapping

// UpdateMode is how rows update a Unique Key table
// (unique_key_update_mode).
type UpdateMode uint8

// The update modes.
const (
	// Upsert writes whole rows.
	Upsert UpdateMode = iota
	// FixedColumns updates the same columns in every row (partial_columns).
	FixedColumns
	// Flexible updates, in each JSON row, the keys the row has.
	Flexible
)

// String is the mode's name in Doris's unique_key_update_mode header.
func (u UpdateMode) String() string {
	switch u {
	case Upsert:
		return "UPSERT"
	case FixedColumns:
		return "UPDATE_FIXED_COLUMNS"
	case Flexible:
		return "UPDATE_FLEXIBLE_COLUMNS"
	}
	panic("BUG: unknown update mode")
}

// ParseUpdateMode reads a mode by its String name; ok is false for any
// other text.
func ParseUpdateMode(s string) (u UpdateMode, ok bool) {
	for _, u := range []UpdateMode{Upsert, FixedColumns, Flexible} {
		if s == u.String() {
			return u, true
		}
	}
	return Upsert, false
}

// MergeType is how a load's rows set the delete sign (merge_type).
type MergeType uint8

// The merge types.
const (
	// Append leaves the delete sign to the input (0 unless given).
	Append MergeType = iota
	// Delete marks every row deleted.
	Delete
	// Merge marks the rows the delete predicate holds for.
	Merge
)

// String is the type's name in Doris's merge_type header.
func (t MergeType) String() string {
	switch t {
	case Append:
		return "APPEND"
	case Delete:
		return "DELETE"
	case Merge:
		return "MERGE"
	}
	panic("BUG: unknown merge type")
}

// ParseMergeType reads a merge type by its String name; ok is false for
// any other text.
func ParseMergeType(s string) (t MergeType, ok bool) {
	for _, t := range []MergeType{Append, Delete, Merge} {
		if s == t.String() {
			return t, true
		}
	}
	return Append, false
}
