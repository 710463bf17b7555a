package labels

// Unfinished counts the txns that have not finished, by state: PREPARE
// (a pending commit counts as PREPARE) and PRECOMMITTED. It reads memory
// only.
func (s *Store) Unfinished() (prepare, precommitted int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.txns {
		if e.t.State == StatePrecommitted {
			precommitted++
		} else if !e.t.State.Final() {
			prepare++
		}
	}
	return prepare, precommitted
}
