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

// HasUnfinishedBefore is HasUnfinished for the txns with ids below before:
// those a schema change job whose watershed is before waits for (Doris's
// GlobalTransactionMgr.getUnFinishedPreviousLoad).
func (s *Store) HasUnfinishedBefore(db, table string, before int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.txns {
		if !e.t.State.Final() && e.t.ID < before && e.t.DB == db && e.t.Table == table {
			return true
		}
	}
	return false
}

// NextID is the id the next txn will get: a schema change job's watershed
// (GlobalTransactionMgr.getNextTransactionId).
func (s *Store) NextID() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nextID
}
