package labels

import "fmt"

// NewSubTxnID hands out a transaction id that names no transaction record:
// the id of a later INSERT ... SELECT inside a multi-statement transaction
// (Doris's sub transaction), from the same sequence as Begin's ids.
func (s *Store) NewSubTxnID() (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, err := s.allocID()
	if err != nil {
		return 0, fmt.Errorf("cannot allocate a transaction id: %w", err)
	}
	return id, nil
}
