package labels

import (
	"fmt"
	"slices"
	"time"
)

// Expire does one round of Doris's removeExpiredAndTimeoutTxns at time now.
// First, per database, it drops finished txns whose whole seconds since
// finishing exceed LabelKeep, then the oldest finished ones beyond
// MaxFinishedPerDB. Then it aborts (synced, ReasonTimeout) the PRECOMMITTED
// txns pre-committed more than PrecommitTimeout ago and returns them: their
// staged data is the caller's to drop. Callers run it periodically.
func (s *Store) Expire(now time.Time) ([]*Txn, error) {
	s.expireMu.Lock()
	defer s.expireMu.Unlock()
	if err := s.dropFinished(now); err != nil {
		return nil, err
	}
	return s.abortTimedOut(now)
}

// dropFinished deletes the expired prefix of each finished queue. Only
// Expire pops the queues, so the prefix is unchanged after the write.
// REQUIRES: s.expireMu held.
func (s *Store) dropFinished(now time.Time) error {
	s.mu.Lock()
	drop := map[string]int{}
	for db, q := range s.finished {
		if n := s.expiredPrefix(q, now); n > 0 {
			drop[db] = n
		}
	}
	s.mu.Unlock()
	if len(drop) == 0 {
		return nil
	}
	b := s.db.NewBatch()
	defer b.Close()
	s.mu.Lock()
	for db, n := range drop {
		for _, e := range s.finished[db][:n] {
			b.Delete(txnKey(e.t.ID))
		}
	}
	s.mu.Unlock()
	if err := b.Commit(); err != nil {
		return fmt.Errorf("cannot drop expired txns: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for db, n := range drop {
		for _, e := range s.finished[db][:n] {
			s.remove(e)
		}
		if q := slices.Delete(s.finished[db], 0, n); len(q) > 0 {
			s.finished[db] = q
		} else {
			delete(s.finished, db)
		}
	}
	return nil
}

// expiredPrefix is how many txns at the front of q Doris's
// unprotectedRemoveUselessTxns would remove.
func (s *Store) expiredPrefix(q []*entry, now time.Time) int {
	keep := int64(s.opts.LabelKeep / time.Second)
	n := 0
	for n < len(q) && now.Sub(q[n].t.FinishTime).Milliseconds()/1000 > keep {
		n++
	}
	if limit := s.opts.MaxFinishedPerDB; limit > 0 && len(q)-n > limit {
		n = len(q) - limit
	}
	return n
}

// abortTimedOut aborts the PRECOMMITTED txns past PrecommitTimeout.
func (s *Store) abortTimedOut(now time.Time) ([]*Txn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []int64
	for id, e := range s.txns {
		if !e.pending && e.t.State == StatePrecommitted &&
			now.Sub(e.t.PrecommitTime).Milliseconds() > s.opts.PrecommitTimeout.Milliseconds() {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	var out []*Txn
	for _, id := range ids {
		e := s.waitIdle(id)
		if e == nil || e.t.State != StatePrecommitted {
			continue // committed or aborted meanwhile
		}
		t, err := s.abortLocked(e, ReasonTimeout, now)
		if err != nil {
			return out, err
		}
		out = append(out, t)
	}
	return out, nil
}
