package labels

import (
	"fmt"
	"time"

	"github.com/bits-and-blooms/bloom/v3"

	"loadgw/storage"
)

// The label filter answers most label checks of Begin without a store
// read: a Bloom filter over the label index keys (l/n) the store may hold.
// A label it has never seen is not in the store, so Begin of a new label
// (every load of a well-behaved client) skips the store's Get that misses
// (a descent of every memtable and a filter probe of every level, 40-130 µs
// of CPU under concurrent loads). A false positive only costs that read.
//
// The filter only grows: a label Expire deletes keeps its bits. It is
// built at Open from the label index (by the first DropExpired when the
// store holds more than filterOpenLabels labels) and rebuilt by
// DropExpired once more labels were added than it was sized for; a full filter is dropped and
// lookups read the store until the rebuild. A store holding more than
// filterMaxLabels labels has no filter (lookups read the store, as they
// did before the filter); DropExpired tries again after filterRetry.
var (
	filterMinLabels  uint = 1 << 16
	filterMaxLabels  uint = 4 << 20 // ~4.8 MB of bits at 1% false positives
	filterOpenLabels uint = 1 << 14
	filterFalsePos        = 0.01
	filterRetry           = 10 * time.Minute

	// filterRebuildHook, when set (tests), runs during a rebuild once the
	// scan of the label index has its view of the store.
	filterRebuildHook func()
)

// labelFilter is the Bloom filter of a Store. REQUIRES: Store.mu held for
// every use.
type labelFilter struct {
	bf       *bloom.BloomFilter
	added    uint // labels added since it was sized, the scanned ones included
	capacity uint // labels it was sized for
}

func newLabelFilter(capacity uint) *labelFilter {
	return &labelFilter{bf: bloom.NewWithEstimates(capacity, filterFalsePos), capacity: capacity}
}

func (f *labelFilter) add(key []byte) {
	f.bf.Add(key)
	f.added++
}

// noteLabel records that the store may now hold label's index key.
// REQUIRES: s.mu held.
func (s *Store) noteLabel(db, label string) {
	if s.filter == nil && s.building == nil {
		return
	}
	k := labelIndexKey(db, label)
	if f := s.filter; f != nil {
		f.add(k)
		if f.added > f.capacity {
			s.filter = nil // full: lookups read the store until DropExpired rebuilds it
		}
	}
	if b := s.building; b != nil {
		b.add(k)
	}
}

// mayHold reports whether the store may hold an index key of label: false
// when the filter is sure it does not. REQUIRES: s.mu held.
func (s *Store) mayHold(db, label string) bool {
	return s.filter == nil || s.filter.bf.Test(labelIndexKey(db, label))
}

// rebuildFilter builds a new filter from the label index and installs it,
// or leaves the store without one when the index holds more than
// filterMaxLabels labels. Begins and lookups run meanwhile: a label begun
// after the rebuild started goes to the new filter too (noteLabel), one
// running when it started is added from memory, and one that finished
// before has its index key in the store before the scan reads it.
// REQUIRES: s.expireMu held, or no other use of s (Open).
func (s *Store) rebuildFilter() error { return s.buildFilter(filterMaxLabels) }

// openFilter builds the filter at Open when the store holds at most
// filterOpenLabels labels; a larger store is left without one for the first
// DropExpired to build (cmd/loadgw runs one at once, on the maintenance
// goroutine), so that Open stays quick.
func (s *Store) openFilter() error { return s.buildFilter(min(filterOpenLabels, filterMaxLabels)) }

// buildFilter is rebuildFilter giving up above limit labels; only the limit
// filterMaxLabels delays the next try (filterRetry).
func (s *Store) buildFilter(limit uint) error {
	n, err := s.countLabels(limit + 1)
	if err != nil {
		return err
	}
	if n > limit {
		s.mu.Lock()
		s.filter = nil
		if limit >= filterMaxLabels {
			s.filterRetryAt = s.clk.Now().Add(filterRetry)
		}
		s.mu.Unlock()
		return nil
	}
	nb := newLabelFilter(max(filterMinLabels, 2*n))
	s.mu.Lock()
	s.building = nb
	for k := range s.byLabel {
		nb.add(labelIndexKey(k.db, k.label))
	}
	s.mu.Unlock()
	err = s.scanLabelKeys(func(keys [][]byte) {
		s.mu.Lock()
		for _, k := range keys {
			nb.add(k)
		}
		s.mu.Unlock()
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	s.building = nil
	if err != nil {
		return fmt.Errorf("cannot build the label filter: %w", err)
	}
	if nb.added > nb.capacity {
		s.filter, s.filterRetryAt = nil, s.clk.Now().Add(filterRetry)
		return nil
	}
	s.filter = nb
	return nil
}

// maybeRebuildFilter rebuilds the filter when the store has none (it
// filled up) and the retry time after a store with too many labels has
// passed. REQUIRES: s.expireMu held.
func (s *Store) maybeRebuildFilter(now time.Time) error {
	s.mu.Lock()
	need := s.filter == nil && !now.Before(s.filterRetryAt)
	s.mu.Unlock()
	if !need {
		return nil
	}
	return s.rebuildFilter()
}

// countLabels counts the label index keys, stopping at limit.
func (s *Store) countLabels(limit uint) (uint, error) {
	it, err := s.db.NewIter(labelKeyPrefix, storage.PrefixEnd(labelKeyPrefix))
	if err != nil {
		return 0, fmt.Errorf("cannot count labels: %w", err)
	}
	var n uint
	for ok := it.First(); ok && n < limit; ok = it.Next() {
		n++
	}
	if err := it.Close(); err != nil {
		return 0, fmt.Errorf("cannot count labels: %w", err)
	}
	return n, nil
}

// scanLabelKeys calls fn with the label index keys, in chunks.
func (s *Store) scanLabelKeys(fn func(keys [][]byte)) error {
	it, err := s.db.NewIter(labelKeyPrefix, storage.PrefixEnd(labelKeyPrefix))
	if err != nil {
		return err
	}
	if filterRebuildHook != nil {
		filterRebuildHook()
	}
	const chunk = 512
	keys := make([][]byte, 0, chunk)
	var buf []byte
	for ok := it.First(); ok; ok = it.Next() {
		start := len(buf)
		buf = append(buf, it.Key()...)
		keys = append(keys, buf[start:len(buf):len(buf)])
		if len(keys) == chunk {
			fn(keys)
			keys, buf = keys[:0], buf[:0]
		}
	}
	if len(keys) > 0 {
		fn(keys)
	}
	return it.Close()
}
