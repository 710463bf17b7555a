package load

import (
	"encoding/binary"
	"fmt"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
)

// Staged rows: a two-phase-commit load keeps its converted rows under
//
//	"s/" | txn id (8 bytes) | sequence (8 bytes)
//
// from pre-commit to commit or abort. They are written in the same batch as
// the PRECOMMITTED record, so a pre-committed load survives a restart.

func stagePrefix(txnID int64) []byte {
	return binary.BigEndian.AppendUint64([]byte("s/"), uint64(txnID))
}

func columnTypes(t *catalog.Table) []types.Type {
	ts := make([]types.Type, len(t.Columns))
	for i, c := range t.Columns {
		ts[i] = c.Type
	}
	return ts
}

// Stage writes rows of table t for transaction txnID into b.
func Stage(b *storage.Batch, t *catalog.Table, txnID int64, rows [][]types.Value) {
	ts := columnTypes(t)
	prefix := stagePrefix(txnID)
	var key, val []byte
	for i, row := range rows {
		key = binary.BigEndian.AppendUint64(append(key[:0], prefix...), uint64(i))
		val = storage.AppendRow(val[:0], t.SchemaVersion, row, ts)
		b.Set(key, val)
	}
}

// ReadStaged returns the rows staged for txnID, which must have been staged
// with the table's current schema.
func ReadStaged(db *storage.DB, t *catalog.Table, txnID int64) ([][]types.Value, error) {
	prefix := stagePrefix(txnID)
	it, err := db.NewIter(prefix, storage.PrefixEnd(prefix))
	if err != nil {
		return nil, err
	}
	defer it.Close()
	ts := columnTypes(t)
	var rows [][]types.Value
	for ok := it.First(); ok; ok = it.Next() {
		ver, body, err := storage.RowVersion(it.Value())
		if err != nil {
			return nil, err
		}
		if ver != t.SchemaVersion {
			return nil, fmt.Errorf("the schema of table %s changed after the load was pre-committed", t.Name)
		}
		row := make([]types.Value, len(ts))
		if err := storage.DecodeRow(body, ts, row); err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, it.Close()
}

// Unstage removes the rows staged for txnID.
func Unstage(b *storage.Batch, txnID int64) {
	p := stagePrefix(txnID)
	b.DeleteRange(p, storage.PrefixEnd(p))
}
