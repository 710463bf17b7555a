package labels

// HasUnfinished reports whether a txn loading into table db.table has not
// finished (PREPARE, a pending commit, or PRECOMMITTED). It reads memory
// only. A schema change that re-keys the table's rows refuses to run
// then: such a load holds rows encoded for the table as it was.
func (s *Store) HasUnfinished(db, table string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.txns {
		if !e.t.State.Final() && e.t.DB == db && e.t.Table == table {
			return true
		}
	}
	return false
}
