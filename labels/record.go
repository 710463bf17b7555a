package labels

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"loadgw/storage"
)

// Key layout: the keys under storage.PrefixLabels, described in
// storage/keyspace.go and owned by this package. A txn's record lives under
// txnKeyPrefix, an unfinished txn is marked under activeKeyPrefix, a
// label's newest txn is indexed under labelKeyPrefix and a finished txn
// under finishKeyPrefix by finish time.
//
// Ids, lengths (uvarint) and times are big endian, so the finish index
// sorts by finish time. putTxn keeps the active, label and finish indexes
// in step with the record in the same batch. Only the newest txn of a label
// can be other than ABORTED (Begin refuses otherwise and ABORTED is final),
// so the label index alone decides whether a label is in use, with one Get.
// Open reads only the active index; Expire walks the finish index from the
// oldest finish time; memory holds only txns that have not finished.
var (
	txnKeyPrefix    = []byte(storage.PrefixLabelTxn)
	activeKeyPrefix = []byte(storage.PrefixLabelActive)
	labelKeyPrefix  = []byte(storage.PrefixLabelName)
	finishKeyPrefix = []byte(storage.PrefixLabelFinish)
	windowKey       = []byte(storage.KeyLabelWindow)
	versionKey      = []byte(storage.KeyLabelVersion)
)

// layoutVersion is the value of versionKey: the l/a, l/n and l/f indexes
// exist. Stores written before them hold only l/t and l/w (see migrate).
const layoutVersion = 1

func txnKey(id int64) []byte { return idKey(txnKeyPrefix, id) }

func activeKey(id int64) []byte { return idKey(activeKeyPrefix, id) }

func idKey(prefix []byte, id int64) []byte {
	return binary.BigEndian.AppendUint64(append([]byte(nil), prefix...), uint64(id))
}

func labelIndexKey(db, label string) []byte {
	k := append([]byte(nil), labelKeyPrefix...)
	k = binary.AppendUvarint(k, uint64(len(db)))
	return append(append(k, db...), label...)
}

// parseLabelIndexKey returns the database and label of an l/n key.
func parseLabelIndexKey(key []byte) (db, label string, err error) {
	k, ok := bytes.CutPrefix(key, labelKeyPrefix)
	n, w := binary.Uvarint(k)
	if !ok || w <= 0 || uint64(len(k)-w) < n {
		return "", "", fmt.Errorf("corrupt label index key %x", key)
	}
	return string(k[w : w+int(n)]), string(k[w+int(n):]), nil
}

func finishKey(t *Txn) []byte {
	k := binary.BigEndian.AppendUint64(append([]byte(nil), finishKeyPrefix...), uint64(timeMs(t.FinishTime)))
	return binary.BigEndian.AppendUint64(k, uint64(t.ID))
}

// parseFinishKey returns the finish time (Unix ms) and txn id of an l/f key.
func parseFinishKey(k []byte) (int64, int64, error) {
	k = k[len(finishKeyPrefix):]
	if len(k) != 16 {
		return 0, 0, fmt.Errorf("corrupt finish key of %d bytes", len(k))
	}
	return int64(binary.BigEndian.Uint64(k)), int64(binary.BigEndian.Uint64(k[8:])), nil
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
	TimeoutMs int64  `json:"to,omitempty"`
}

func encodeTxn(t *Txn) []byte {
	b, _ := json.Marshal(record{
		ID: t.ID, DB: t.DB, Label: t.Label, Table: t.Table, State: t.State,
		Prepare: timeMs(t.PrepareTime), Precommit: timeMs(t.PrecommitTime),
		Finish: timeMs(t.FinishTime), TSO: t.CommitTSO, Reason: t.Reason,
		TimeoutMs: t.TimeoutMs,
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
		TimeoutMs: r.TimeoutMs,
	}, nil
}

// putTxn adds the record of t and its index entries to b. Begin's record
// (PREPARE) makes t the newest txn of its label.
func putTxn(b *storage.Batch, t *Txn) {
	b.Set(txnKey(t.ID), encodeTxn(t))
	if t.State.Final() {
		b.Delete(activeKey(t.ID))
		b.Set(finishKey(t), labelIndexKey(t.DB, t.Label))
	} else {
		b.Set(activeKey(t.ID), nil)
	}
	if t.State == StatePrepare {
		putNewest(b, t)
	}
}

func putNewest(b *storage.Batch, t *Txn) {
	b.Set(labelIndexKey(t.DB, t.Label), binary.BigEndian.AppendUint64(nil, uint64(t.ID)))
}

// readTxn returns the persisted txn id, or nil.
func readTxn(r storage.Reader, id int64) (*Txn, error) {
	v, err := r.Get(txnKey(id))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	t, err := decodeTxn(v)
	if err != nil {
		return nil, fmt.Errorf("cannot decode txn record %d: %w", id, err)
	}
	return t, nil
}

// readNewest returns the persisted newest txn with label in db, or nil.
func readNewest(r storage.Reader, db, label string) (*Txn, error) {
	v, err := r.Get(labelIndexKey(db, label))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if len(v) != 8 {
		return nil, fmt.Errorf("corrupt label index entry of %d bytes", len(v))
	}
	return readTxn(r, int64(binary.BigEndian.Uint64(v)))
}

// scanTxns calls fn with every persisted txn in id order.
func scanTxns(db *storage.DB, fn func(*Txn) error) error {
	return storage.ScanPrefix(db, txnKeyPrefix, func(k, v []byte) error {
		t, err := decodeTxn(v)
		if err != nil {
			return fmt.Errorf("cannot decode txn record %x: %w", k, err)
		}
		return fn(t)
	})
}

// activeIDs returns the ids of the PREPARE and PRECOMMITTED txns.
func activeIDs(db *storage.DB) ([]int64, error) {
	var ids []int64
	err := storage.ScanPrefix(db, activeKeyPrefix, func(k, _ []byte) error {
		if len(k) != len(activeKeyPrefix)+8 {
			return fmt.Errorf("corrupt active txn key %x", k)
		}
		ids = append(ids, int64(binary.BigEndian.Uint64(k[len(activeKeyPrefix):])))
		return nil
	})
	return ids, err
}

// migrate builds the indexes of a store written before they existed, from
// its records (at most label_num_threshold finished txns per database then),
// and marks the layout version.
func migrate(db *storage.DB) error {
	_, err := db.Get(versionKey)
	if !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	b := db.NewBatch()
	defer b.Close()
	err = scanTxns(db, func(t *Txn) error {
		putTxn(b, t)
		putNewest(b, t) // in id order: the newest wins
		return nil
	})
	if err != nil {
		return fmt.Errorf("cannot index txn records: %w", err)
	}
	b.Set(versionKey, []byte{layoutVersion})
	return b.Commit()
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
