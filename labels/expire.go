package labels

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"

	"loadgw/storage"
)

// expireBatch is how many finished txns Expire drops with one write, which
// bounds its memory and the time it holds the store's lock.
const expireBatch = 1024

// Expire does one round of Doris's removeExpiredAndTimeoutTxns at time now.
// First it drops the finished txns whose whole seconds since finishing
// exceed LabelKeep, with their labels, however many there are. Unlike
// Doris, no count limit drops younger ones (label_num_threshold). Then it
// aborts (synced, ReasonTimeout) the PRECOMMITTED txns pre-committed more
// than PrecommitTimeout ago and returns them: their staged data is the
// caller's to drop. Callers run it periodically.
func (s *Store) Expire(now time.Time) ([]*Txn, error) {
	if err := s.DropExpired(now); err != nil {
		return nil, err
	}
	return s.AbortTimedOut(now)
}

// DropExpired is the first half of Expire: it drops the finished txns
// whose whole seconds since finishing exceed LabelKeep, with their labels.
func (s *Store) DropExpired(now time.Time) error {
	s.expireMu.Lock()
	defer s.expireMu.Unlock()
	for {
		n, err := s.dropExpired(now)
		if err != nil {
			return fmt.Errorf("cannot drop expired txns: %w", err)
		}
		if n < expireBatch {
			return nil
		}
	}
}

// AbortTimedOut is the second half of Expire: it aborts (synced,
// ReasonTimeout) the PRECOMMITTED txns pre-committed more than
// PrecommitTimeout ago and returns them, also those aborted before an
// error: their staged data is the caller's to drop.
func (s *Store) AbortTimedOut(now time.Time) ([]*Txn, error) { return s.abortTimedOut(now) }

// expired is a finished txn found expired in the finish index.
type expired struct {
	id       int64
	finish   []byte // its l/f key
	labelKey []byte // its l/n key
	newest   bool   // its l/n key named it when read without s.mu
}

// dropExpired deletes up to expireBatch expired txns, oldest first, and
// returns how many it found.
// REQUIRES: s.expireMu held.
func (s *Store) dropExpired(now time.Time) (int, error) {
	batch, err := s.findExpired(now)
	if err != nil || len(batch) == 0 {
		return 0, err
	}
	// Read the label index without s.mu first: an l/n key only ever moves
	// to a newer txn, so one that did not name x never will, and the reads
	// under s.mu below find their blocks cached.
	for i := range batch {
		if batch[i].newest, err = s.namesTxn(batch[i]); err != nil {
			return 0, err
		}
	}
	b := s.db.NewBatch()
	defer b.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range batch {
		b.Delete(txnKey(x.id))
		b.Delete(x.finish)
		if !x.newest {
			continue
		}
		if ok, err := s.isNewestAtRest(x); err != nil {
			return 0, err
		} else if ok {
			b.Delete(x.labelKey)
		}
	}
	// Not synced: a lost deletion is redone by the next Expire. Committed
	// under s.mu, so it is ordered before any later Begin of these labels.
	if err := b.CommitNoSync(); err != nil {
		return 0, err
	}
	s.expireFrom = append(slices.Clone(batch[len(batch)-1].finish), 0)
	return len(batch), nil
}

// isNewestAtRest reports whether x is the newest txn of its label and no
// txn of that label runs. Begin writes a label's l/n key only while it
// holds the label in memory, so under s.mu a label not in memory has a
// settled l/n key. REQUIRES: s.mu held.
func (s *Store) isNewestAtRest(x expired) (bool, error) {
	db, label, err := parseLabelIndexKey(x.labelKey)
	if err != nil {
		return false, err
	}
	if s.byLabel[labelKey{db, label}] != nil {
		return false, nil
	}
	return s.namesTxn(x)
}

// namesTxn reports whether the l/n key of x names x.
func (s *Store) namesTxn(x expired) (bool, error) {
	v, err := s.db.Get(x.labelKey)
	if errors.Is(err, storage.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return len(v) == 8 && int64(binary.BigEndian.Uint64(v)) == x.id, nil
}

// findExpired reads up to expireBatch expired txns from the finish index,
// oldest first, from s.expireFrom on. A txn is expired, as in Doris's
// TransactionState.isExpired, once the whole seconds since it finished
// exceed LabelKeep.
// REQUIRES: s.expireMu held.
func (s *Store) findExpired(now time.Time) ([]expired, error) {
	keep, nowMs := int64(s.opts.LabelKeep/time.Second), now.UnixMilli()
	from := s.expireFrom
	if from == nil {
		from = finishKeyPrefix
	}
	it, err := s.db.NewIter(from, storage.PrefixEnd(finishKeyPrefix))
	if err != nil {
		return nil, err
	}
	var out []expired
	for ok := it.First(); ok && len(out) < expireBatch; ok = it.Next() {
		finish, id, err := parseFinishKey(it.Key())
		if err != nil {
			it.Close()
			return nil, err
		}
		if (nowMs-finish)/1000 <= keep {
			break
		}
		out = append(out, expired{id: id, finish: slices.Clone(it.Key()), labelKey: slices.Clone(it.Value())})
	}
	return out, it.Close()
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
