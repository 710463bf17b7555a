package engine

// readsDeleted reports whether a query's scans keep delete-marked rows of
// Unique Key tables: Doris's BindRelation adds the delete sign filter only
// when the session neither shows hidden columns (show_hidden_columns,
// skip_storage_engine_merge) nor skips the delete sign (skip_delete_sign).
func (s *Session) readsDeleted() bool {
	return s.hot().readsDeleted
}

// keepDeleted makes the scanner return delete-marked rows as well (the
// delete sign is still read, so a query can show it).
func (sc *scanner) keepDeleted() { sc.withDeleted = true }
