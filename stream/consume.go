package stream

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"loadgw/catalog"
	"loadgw/storage"
)

// Consumption moves a stream's offsets: every partition in Seen (its
// state when the statement read it) to Upper.
type Consumption struct {
	ID    int64
	Upper uint64
	Seen  map[string]Unit
}

// ErrConsumed is Doris's text for a consumption whose partitions another
// consumer advanced after this one read them.
var ErrConsumed = errorf("target offset already consumed")

// Merge adds c to the consumptions of one statement: a stream read twice
// advances once, over the union of the partitions read.
func Merge(all map[int64]*Consumption, c *Consumption) {
	cur, ok := all[c.ID]
	if !ok {
		all[c.ID] = c
		return
	}
	for p, u := range c.Seen {
		if _, ok := cur.Seen[p]; !ok {
			cur.Seen[p] = u
		}
	}
}

// Stage checks that no partition of cs moved since it was read, writes
// the new offsets into b and publishes them. Call it from the commit that
// writes b, right before the batch commits (under the writer's commit
// lock); if that commit then fails, call Reload. nowMs is the consumption
// time.
func (m *Manager) Stage(b *storage.Batch, cs map[int64]*Consumption, nowMs int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	next := map[int64]*Stream{}
	for id, c := range cs {
		cur := m.byID[id]
		if cur == nil {
			return errorf("Unknown table '%d'", id)
		}
		s := cur.Clone()
		for p, seen := range c.Seen {
			if s.Units[p] != seen {
				return ErrConsumed
			}
			s.Units[p] = Unit{Offset: c.Upper, ConsumedAt: nowMs}
		}
		if err := put(b, s); err != nil {
			return err
		}
		next[id] = s
	}
	for id, s := range next {
		m.byID[id] = s
	}
	if len(next) > 0 {
		m.notify()
	}
	return nil
}

// Consume applies cs on its own synced write: a consuming statement that
// writes no rows still advances its streams.
func (m *Manager) Consume(db *storage.DB, cs map[int64]*Consumption, nowMs int64) error {
	b := db.NewBatch()
	defer b.Close()
	if err := m.Stage(b, cs, nowMs); err != nil {
		return err
	}
	if err := b.Commit(); err != nil {
		m.Reload(cs)
		return fmt.Errorf("cannot advance stream offsets: %w", err)
	}
	return nil
}

// Reload rereads the streams of cs from the store, after a commit that
// staged them failed.
func (m *Manager) Reload(cs map[int64]*Consumption) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id := range cs {
		v, err := m.db.Get(key(id))
		if errors.Is(err, storage.ErrNotFound) {
			delete(m.byID, id)
			continue
		}
		s := &Stream{}
		if err != nil || json.Unmarshal(v, s) != nil {
			continue // keep the memory state; the store is failing
		}
		if s.Units == nil {
			s.Units = map[string]Unit{}
		}
		m.byID[id] = s
	}
}

// CommitTo moves every partition in parts (lower case) of stream id whose
// offset is below tso up to tso (the HTTP consumer's commit of the last
// TSO it processed); offsets at or past tso stay, so repeating a commit
// changes nothing.
func (m *Manager) CommitTo(id int64, parts []string, tso uint64, nowMs int64) error {
	return m.change(id, func(s *Stream) error {
		for _, p := range parts {
			if u := s.Units[p]; u.Initial || u.Offset < tso {
				s.Units[p] = Unit{Offset: tso, ConsumedAt: nowMs}
			}
		}
		return nil
	})
}

// ResetConsumption is what consuming s@reset() does: every partition read
// (all of t's, or the PARTITION clause's) moves to upper.
func ResetConsumption(s *Stream, t *catalog.Table, upper uint64, partitions []string) *Consumption {
	if len(partitions) == 0 {
		partitions = Units(t)
	}
	c := &Consumption{ID: s.ID, Upper: upper, Seen: map[string]Unit{}}
	for _, p := range partitions {
		c.Seen[strings.ToLower(p)] = s.Units[strings.ToLower(p)]
	}
	return c
}
