package engine

import (
	"loadgw/catalog"
	"loadgw/types"
	"loadgw/upsert"
)

// Building INVERTED indexes (see upsert/index_entries.go for the entries).
// A new table's indexes are built at once (it has no rows). ALTER TABLE
// ADD INDEX and CREATE INDEX build the entries of the existing rows
// synchronously, under the writer's lock the ALTER holds, in the catalog
// change's own batch, so the index becomes usable atomically with its
// entries; Doris runs the build as an asynchronous ALTER job instead.
// DROP INDEX removes the entries in the same batch.

// assignIndexIDs numbers the buildable indexes of a new table (none of
// its rows exist yet), and clears ids copied from another table (CREATE
// TABLE ... LIKE).
func assignIndexIDs(tx *catalog.Tx, t *catalog.Table) {
	for i := range t.Indexes {
		t.Indexes[i].ID, t.Indexes[i].ColUID, t.Indexes[i].ColType = 0, 0, types.Type{}
		if col, ok := upsert.Indexable(t, t.Indexes[i]); ok {
			t.Indexes[i].ID = tx.NewID()
			t.Indexes[i].ColUID = t.Columns[col].UID
			t.Indexes[i].ColType = t.Columns[col].Type
		}
	}
}

// alterIndexEntries brings the stored entries in line with an ALTER from
// old to nt, in tx's batch: entries of dropped or no longer valid indexes
// go, indexes added (or whose column changed type) are built from the
// stored rows. rewrite reports that the ALTER rewrites the rows under new
// keys (a key schema change, ingested after the batch): its indexes are
// left as declarations, since their entries would name the old keys.
func (s *Session) alterIndexEntries(tx *catalog.Tx, old, nt *catalog.Table, rewrite bool) error {
	valid := map[int64]bool{}
	for _, ic := range upsert.BuiltIndexes(nt) {
		valid[ic.ID] = true
	}
	live := map[int64]bool{}
	for i := range nt.Indexes {
		ix := &nt.Indexes[i]
		if ix.ID != 0 && (!valid[ix.ID] || rewrite) {
			ix.ID = 0 // its entries are dropped below
		}
		if ix.ID != 0 {
			live[ix.ID] = true
			continue
		}
		col, ok := upsert.Indexable(nt, *ix)
		if !ok || rewrite {
			continue
		}
		ix.ID, ix.ColUID, ix.ColType = tx.NewID(), nt.Columns[col].UID, nt.Columns[col].Type
		live[ix.ID] = true
		ic := upsert.IndexCol{ID: ix.ID, Name: ix.Name, Col: col, Type: ix.ColType}
		if err := upsert.BuildIndex(tx.Batch, s.e.db, catalog.NewRowCodec(nt), ic); err != nil {
			return err
		}
	}
	for _, ix := range old.Indexes {
		if ix.ID != 0 && !live[ix.ID] && !rewrite {
			upsert.DropIndex(tx.Batch, old.ID, ix.ID)
		}
	}
	return nil
}
