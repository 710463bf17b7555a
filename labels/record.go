package labels

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"loadgw/storage"
)

// Key layout (prefix "l/", owned by this package):
//
//	l/t/<txn id: 8 bytes big endian> → record (compact JSON)
//	l/w                               → txn id window end (8 bytes big endian)
//
// Open reads every record and rebuilds the indexes by database and label;
// the number of records is bounded by the label retention rules.
var (
	txnKeyPrefix = []byte("l/t/")
	windowKey    = []byte("l/w")
)

func txnKey(id int64) []byte {
	return binary.BigEndian.AppendUint64(append([]byte(nil), txnKeyPrefix...), uint64(id))
}

// record is the persisted form of a Txn; times are Unix milliseconds.
type record struct {
	ID        int64  `json:"id"`
	DB        string `json:"db"`
	Label     string `json:"l"`
	Table     string `json:"t,omitempty"`
	State     State  `json:"s"`
	Prepare   int64  `json:"p"`
	Precommit int64  `json:"pc,omitempty"`
	Finish    int64  `json:"f,omitempty"`
	TSO       uint64 `json:"tso,omitempty"`
	Reason    string `json:"r,omitempty"`
}

func encodeTxn(t *Txn) []byte {
	b, _ := json.Marshal(record{
		ID: t.ID, DB: t.DB, Label: t.Label, Table: t.Table, State: t.State,
		Prepare: timeMs(t.PrepareTime), Precommit: timeMs(t.PrecommitTime),
		Finish: timeMs(t.FinishTime), TSO: t.CommitTSO, Reason: t.Reason,
	})
	return b
}

func decodeTxn(v []byte) (*Txn, error) {
	var r record
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, err
	}
	return &Txn{
		ID: r.ID, DB: r.DB, Label: r.Label, Table: r.Table, State: r.State,
		PrepareTime: msTime(r.Prepare), PrecommitTime: msTime(r.Precommit),
		FinishTime: msTime(r.Finish), CommitTSO: r.TSO, Reason: r.Reason,
	}, nil
}

// putTxn adds the record of t to b.
func putTxn(b *storage.Batch, t *Txn) { b.Set(txnKey(t.ID), encodeTxn(t)) }

// loadTxns reads every persisted txn in id order.
func loadTxns(db *storage.DB) ([]*Txn, error) {
	it, err := db.NewIter(txnKeyPrefix, storage.PrefixEnd(txnKeyPrefix))
	if err != nil {
		return nil, err
	}
	var out []*Txn
	for ok := it.First(); ok; ok = it.Next() {
		t, err := decodeTxn(it.Value())
		if err != nil {
			it.Close()
			return nil, fmt.Errorf("cannot decode txn record %x: %w", it.Key(), err)
		}
		out = append(out, t)
	}
	return out, it.Close()
}

func loadWindow(db *storage.DB) (int64, error) {
	v, err := db.Get(windowKey)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return 0, nil
	case err != nil:
		return 0, err
	case len(v) != 8:
		return 0, fmt.Errorf("corrupt txn id window of %d bytes", len(v))
	}
	return int64(binary.BigEndian.Uint64(v)), nil
}

func persistWindow(db *storage.DB, end int64) error {
	return db.Update(func(b *storage.Batch) error {
		b.Set(windowKey, binary.BigEndian.AppendUint64(nil, uint64(end)))
		return nil
	})
}
