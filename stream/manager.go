package stream

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"loadgw/storage"
)

const prefix = storage.PrefixStream

// Manager holds the streams of the store. It is safe for concurrent use;
// every change is written (synced) before it is published in memory.
type Manager struct {
	db *storage.DB

	mu     sync.Mutex
	byID   map[int64]*Stream
	nextID int64
	// changed is closed and replaced whenever offsets move or a stream is
	// dropped, so long polls wake up.
	changed chan struct{}
}

// OpenManager loads the streams kept in db.
func OpenManager(db *storage.DB) (*Manager, error) {
	m := &Manager{db: db, byID: map[int64]*Stream{}, changed: make(chan struct{})}
	it, err := db.NewIter([]byte(prefix), storage.PrefixEnd([]byte(prefix)))
	if err != nil {
		return nil, fmt.Errorf("cannot read streams: %w", err)
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		s := &Stream{}
		if err := json.Unmarshal(it.Value(), s); err != nil {
			return nil, fmt.Errorf("cannot decode stream %x: %w", it.Key(), err)
		}
		if s.Units == nil {
			s.Units = map[string]Unit{}
		}
		m.byID[s.ID] = s
		m.nextID = max(m.nextID, s.ID)
	}
	return m, nil
}

func put(b *storage.Batch, s *Stream) error {
	enc, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("cannot encode stream %s: %w", s.Name, err)
	}
	b.Set(key(s.ID), enc)
	return nil
}

// Lookup returns a copy of stream name of database db (names are case
// sensitive, as table names), or nil.
func (m *Manager) Lookup(db, name string) *Stream {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.find(db, name); s != nil {
		return s.Clone()
	}
	return nil
}

func (m *Manager) find(db, name string) *Stream {
	for _, s := range m.byID {
		if s.DB == db && s.Name == name {
			return s
		}
	}
	return nil
}

// Get returns a copy of stream id, or nil.
func (m *Manager) Get(id int64) *Stream {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.byID[id]; s != nil {
		return s.Clone()
	}
	return nil
}

// List returns copies of the streams of database db ("" for all), by
// database then name.
func (m *Manager) List(db string) []*Stream {
	m.mu.Lock()
	var out []*Stream
	for _, s := range m.byID {
		if db == "" || s.DB == db {
			out = append(out, s.Clone())
		}
	}
	m.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].DB != out[j].DB {
			return out[i].DB < out[j].DB
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Create stores a new stream, giving it an id. exists reports a name
// already used in the database by a table (checked by the caller) — the
// manager checks streams.
func (m *Manager) Create(s *Stream) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.find(s.DB, s.Name) != nil {
		return ErrExists
	}
	s = s.Clone()
	s.ID = m.nextID + 1
	if err := m.db.Update(func(b *storage.Batch) error { return put(b, s) }); err != nil {
		return fmt.Errorf("cannot create stream %s: %w", s.Name, err)
	}
	m.nextID = s.ID
	m.byID[s.ID] = s
	return nil
}

// ErrExists is returned by Create for a name a stream already has.
var ErrExists = errorf("stream exists")

// Drop removes stream id.
func (m *Manager) Drop(id int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.db.Update(func(b *storage.Batch) error { b.Delete(key(id)); return nil }); err != nil {
		return fmt.Errorf("cannot drop stream %d: %w", id, err)
	}
	delete(m.byID, id)
	m.notify()
	return nil
}

// StageDropDatabase deletes the streams of database db in b, the batch
// of the DROP DATABASE (streams elsewhere on its tables stay, as in
// Doris); call PublishDropDatabase once b committed.
func (m *Manager) StageDropDatabase(b *storage.Batch, db string) error {
	for _, s := range m.List(db) {
		b.Delete(key(s.ID))
	}
	return nil
}

// PublishDropDatabase forgets the streams of database db.
func (m *Manager) PublishDropDatabase(db string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, s := range m.byID {
		if s.DB == db {
			delete(m.byID, id)
		}
	}
	m.notify()
}

// SetComment changes the comment of stream id.
func (m *Manager) SetComment(id int64, comment string) error {
	return m.change(id, func(s *Stream) error { s.Comment = comment; return nil })
}

// change applies fn to a copy of stream id, writes it, then publishes it.
func (m *Manager) change(id int64, fn func(s *Stream) error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	cur := m.byID[id]
	if cur == nil {
		return errorf("Unknown table '%d'", id)
	}
	s := cur.Clone()
	if err := fn(s); err != nil {
		return err
	}
	if err := m.db.Update(func(b *storage.Batch) error { return put(b, s) }); err != nil {
		return fmt.Errorf("cannot change stream %s: %w", s.Name, err)
	}
	m.byID[id] = s
	m.notify()
	return nil
}

// notify wakes the waiters of Changed. REQUIRES: m.mu held.
func (m *Manager) notify() {
	close(m.changed)
	m.changed = make(chan struct{})
}

// Changed returns a channel closed at the next change of any stream's
// offsets (or a drop).
func (m *Manager) Changed() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.changed
}
