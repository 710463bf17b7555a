package upsert

import (
	"encoding/binary"

	"loadgw/storage"
)

// DropStagedExcept removes the staged rows of every transaction for which
// keep returns false, in one synced batch, and returns their ids in order.
// At start, before any load runs, keep is "the transaction is
// PRECOMMITTED": rows staged by a load cut off by a crash, or by an abort
// whose removal a crash cut off, are dropped; a pre-committed load keeps
// its rows for its commit or abort.
func DropStagedExcept(db *storage.DB, keep func(txnID int64) bool) ([]int64, error) {
	lo := []byte(storage.PrefixStage)
	it, err := db.NewIter(lo, storage.PrefixEnd(lo))
	if err != nil {
		return nil, err
	}
	var drop []int64
	for ok := it.First(); ok; {
		k := it.Key()
		if len(k) < len(lo)+8 {
			ok = it.Next() // not a staging key; nothing writes one
			continue
		}
		id := int64(binary.BigEndian.Uint64(k[len(lo):]))
		if !keep(id) {
			drop = append(drop, id)
		}
		ok = it.SeekGE(storage.PrefixEnd(StagePrefix(id)))
	}
	if err := it.Close(); err != nil {
		return nil, err
	}
	if len(drop) == 0 {
		return nil, nil
	}
	err = db.Update(func(b *storage.Batch) error {
		for _, id := range drop {
			dropStagedIn(b, id)
		}
		return nil
	})
	return drop, err
}
