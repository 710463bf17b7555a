package upsert

import (
	"encoding/binary"
	"errors"
	"sync"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
)

// autoIncBlock is how many ids are reserved durably at a time. Ids are
// unique and increasing but, as in Doris, not gapless: a restart skips the
// rest of the reserved block.
const autoIncBlock = 1000

// autoInc hands out AUTO_INCREMENT values per column. It persists a
// high-water mark before handing out ids below it.
type autoInc struct {
	mu   sync.Mutex
	next map[string]*incState
}

type incState struct {
	next, limit int64
}

func autoIncKey(tableID int64, uid int32) []byte {
	k := binary.BigEndian.AppendUint64([]byte(storage.PrefixAutoInc), uint64(tableID))
	return binary.BigEndian.AppendUint32(k, uint32(uid))
}

// AllocAutoInc reserves n consecutive ids for AUTO_INCREMENT column c of
// table t and returns the first. The ids are durably reserved when it
// returns.
func (w *Writer) AllocAutoInc(t *catalog.Table, c *catalog.Column, n int64) (int64, error) {
	return w.ids.alloc(w.db, t, c, n)
}

// AutoIncValue hands out a fresh value of AUTO_INCREMENT column col of t.
func (w *Writer) AutoIncValue(t *catalog.Table, col int) (types.Value, error) {
	c := t.Columns[col]
	n, err := w.AllocAutoInc(t, c, 1)
	if err != nil {
		return types.Value{}, err
	}
	return types.NewInt(c.Type.Kind, n), nil
}

// alloc reserves n consecutive ids for column c of table t and returns the
// first.
func (a *autoInc) alloc(db *storage.DB, t *catalog.Table, c *catalog.Column, n int64) (int64, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.next == nil {
		a.next = map[string]*incState{}
	}
	key := autoIncKey(t.ID, c.UID)
	st := a.next[string(key)]
	if st == nil {
		st = &incState{next: max(c.AutoIncStart, 1)}
		b, err := db.Get(key)
		switch {
		case errors.Is(err, storage.ErrNotFound):
		case err != nil:
			return 0, err
		default:
			st.next = max(st.next, int64(binary.BigEndian.Uint64(b)))
		}
		st.limit = st.next
		a.next[string(key)] = st
	}
	if st.next+n > st.limit {
		limit := st.next + n + autoIncBlock
		if err := db.Update(func(b *storage.Batch) error {
			b.Set(key, binary.BigEndian.AppendUint64(nil, uint64(limit)))
			return nil
		}); err != nil {
			return 0, err
		}
		st.limit = limit
	}
	first := st.next
	st.next += n
	return first, nil
}
