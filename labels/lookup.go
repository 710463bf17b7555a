package labels

import "fmt"

// ByLabel returns the newest txn with label in db, or nil when the label
// has none (it never had, or its txns expired).
func (s *Store) ByLabel(db, label string) (*Txn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.newest(db, label)
	if err != nil {
		return nil, fmt.Errorf("cannot read txn of label %s: %w", label, err)
	}
	if t == nil {
		return nil, nil
	}
	return t.clone(), nil
}
