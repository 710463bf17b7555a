package upsert

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"time"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/storage"
	"loadgw/tso"
	"loadgw/types"
)

// Partial says how the rows of a transaction update existing rows of a
// merge-on-write Unique Key table when they do not carry every column.
type Partial struct {
	// Flexible: each row carries its own set of columns and the hidden
	// skip bitmap records the columns it lacked (UPDATE_FLEXIBLE_COLUMNS).
	// Otherwise every row carries the same columns (UPDATE_FIXED_COLUMNS).
	Flexible bool
	// NewKeyError refuses rows whose key is not in the table
	// (partial_update_new_key_behavior ERROR).
	NewKeyError bool
	// LastRowWins: of the rows of one key the last is the one applied,
	// whatever their sequence values (a fixed partial update by INSERT
	// that carries the sequence through its mapped column: Doris's
	// memtable finds no __DORIS_SEQUENCE_COL__ in that block; see
	// test_partial_update_insert_seq_col's key 3).
	LastRowWins bool
	// Now and Loc evaluate the defaults of new rows.
	Now time.Time
	Loc *time.Location
}

// CodedError is a failure with the Doris status code a load reports it
// under, e.g. E-207 or E-7003.
type CodedError struct {
	Code, Msg string
}

func (e *CodedError) Error() string { return "[" + e.Code + "]" + e.Msg }

// StatusCode is the Doris status code.
func (e *CodedError) StatusCode() string { return e.Code }

// kvWriter is where resolved keys go: a batch, or a table file.
type kvWriter interface {
	Set(key, value []byte) error
	Delete(key []byte) error
}

// batchKV writes to a commit batch. Its Delete is a single deletion
// (storage.Batch.SingleDelete): groupWriter deletes only row versions it
// supersedes, each set once under its commit's TSO; the single deletion and
// the set it removes vanish together when a flush or compaction meets
// them, where a Delete's tombstone would be written out and compacted on.
type batchKV struct{ b *storage.Batch }

func (k batchKV) Set(key, value []byte) error { k.b.Set(key, value); return nil }
func (k batchKV) Delete(key []byte) error {
	if plainDeletes {
		k.b.Delete(key)
	} else {
		k.b.SingleDelete(key)
	}
	return nil
}

// plainDeletes makes batchKV delete with Delete, as before single
// deletions: set only by benchmarks comparing the two.
var plainDeletes bool

// groupWriter resolves the rows of one transaction key by key, in
// ascending key order: it merges them with the key's current version and
// writes the new version, deleting superseded ones on merge-on-write and
// Aggregate Key tables.
type groupWriter struct {
	rc      *catalog.RowCodec
	t       *catalog.Table
	ts      uint64
	partial *Partial
	// versions: keys are resolved against their current versions
	// (merge-on-write and Aggregate Key tables). old is the iterator g
	// reads the store's with, opened by the first read (stored): a small
	// commit finds most keys in the key table, often all of them.
	versions bool
	db       *storage.DB
	old      *storage.Iter
	out      kvWriter
	key      []byte
	n        int
	delSign  int
	skipBmp  int
	seq      int              // the hidden sequence column, or -1
	seqMap   int              // the value column it copies, or -1
	rec      *binlog.Recorder // nil without Row Binlog
	added    func(col int) types.Value
	autoInc  func(t *catalog.Table, col int) (types.Value, error) // nil: none
	// keepOld: a NULL in a value column keeps the column's current value
	// (enable_unique_key_replace_if_not_null).
	keepOld bool
	// w, when set, is the Writer whose key table (recent.go) the serial
	// section reads before the store: pending and written versions; and
	// written collects the versions this commit writes (group.go).
	w       *Writer
	written []pendingWrite
	// found holds the current versions current copied out: add reuses it
	// key after key; a resolution before the serial section keeps them
	// all (a commit of at most groupMaxBytes).
	found []byte
}

// usePending makes g read the versions of pending commits first and
// collect the versions it writes. REQUIRES: the Writer's mu held while g
// resolves.
func (g *groupWriter) usePending(w *Writer) {
	if g.versions {
		g.w = w
	}
}

func newGroupWriter(w *Writer, rc *catalog.RowCodec, ts uint64, partial *Partial, out, changes kvWriter) (*groupWriter, error) {
	t := rc.Table()
	g := &groupWriter{rc: rc, t: t, ts: ts, partial: partial, db: w.db, out: out, rec: binlog.NewRecorder(rc, ts, changes), autoInc: w.AutoIncValue}
	_, g.delSign = t.Column(catalog.DeleteSignCol)
	_, g.skipBmp = t.Column(catalog.SkipBitmapCol)
	g.seq, g.seqMap = t.Sequence()
	g.keepOld = t.MergeOnWrite() && t.Properties["enable_unique_key_replace_if_not_null"] == "true"
	g.versions = t.Keys == catalog.AggKeys || t.MergeOnWrite()
	return g, nil
}

func (g *groupWriter) close() {
	if g.old != nil {
		g.old.Close()
	}
}

// add resolves one key: vals are its rows' encoded stored columns in input
// order; masks[i] is nil for a full row, else the provided-column bitmap.
func (g *groupWriter) add(prefix []byte, vals, masks [][]byte) error {
	return g.addKey(prefix, nil, vals, masks)
}

// addKey is add with the key's entry in the key table (nil: none) when g
// runs in the serial section.
func (g *groupWriter) addKey(prefix []byte, e *keyState, vals, masks [][]byte) error {
	g.found = g.found[:0] // the previous key's copies are written out
	oldVal, oldKey, _, err := g.current(prefix, e)
	if err != nil {
		return err
	}
	val, err := g.resolve(prefix, vals, masks, oldVal)
	if err != nil {
		return err
	}
	return g.emit(prefix, e, oldVal, oldKey, val)
}

// current returns the current version of the key with row key prefix
// prefix, value and key, or nils: in the serial section (g.w set) a
// pending commit's from the key's entry e, else the store's (from e when
// it knows it); outside it the store's.
func (g *groupWriter) current(prefix []byte, e *keyState) (oldVal, oldKey []byte, pending bool, err error) {
	if !g.versions {
		return nil, nil, false, nil
	}
	if g.w != nil {
		if e != nil && e.g != nil {
			return e.val, e.key, true, nil
		}
		if k, v, ok := g.w.keys.written(e); ok {
			return v, k, false, nil
		}
	}
	oldVal, oldKey, err = g.stored(prefix)
	return oldVal, oldKey, false, err
}

// stored returns the version of the key with row key prefix prefix the
// store holds, value and key copied into g.found, or nils. Its first call
// opens g's iterator.
func (g *groupWriter) stored(prefix []byte) (oldVal, oldKey []byte, err error) {
	if g.old == nil {
		p := g.rc.Prefix()
		if g.old, err = g.db.NewIter(p, storage.PrefixEnd(p)); err != nil {
			return nil, nil, err
		}
	}
	// Merge-on-write and Aggregate Key tables hold at most one version of
	// a key: every commit deletes the version it supersedes. So the first
	// version a seek finds (the newest: versions sort by ^TSO) is the only
	// one, and the iterator does not step on: the next live key lies past
	// the deletions of every version the key ever had, which a hot key
	// piles up until compaction removes them.
	if !g.old.SeekGE(prefix) {
		return nil, nil, nil
	}
	cur := g.old.Key()
	if len(cur) != len(prefix)+g.rc.KeySuffixLen() || !bytes.HasPrefix(cur, prefix) {
		return nil, nil, nil
	}
	var k, v []byte
	g.found, k, v = appendPair(g.found, cur, g.old.Value())
	return v, k, nil
}

// appendPair copies k and v to the end of arena and returns the grown
// arena and the copies. The copies' capacities end at their lengths, and a
// reallocation of arena leaves earlier copies where they are, unchanged: so
// one arena holds many pairs.
func appendPair(arena, k, v []byte) (grown, kc, vc []byte) {
	start, mid := len(arena), len(arena)+len(k)
	arena = append(append(arena, k...), v...)
	return arena, arena[start:mid:mid], arena[mid:len(arena):len(arena)]
}

// emit writes what resolving a key gave: val as the key's new version
// (nil: the key does not change), the change record, the removal of the
// superseded version oldKey. e is the key's entry in the key table when g
// runs in the serial section.
func (g *groupWriter) emit(prefix []byte, e *keyState, oldVal, oldKey, val []byte) error {
	if val == nil {
		return nil // discarded by the sequence column: nothing changes
	}
	if g.rec != nil {
		if err := g.rec.Change(prefix, oldVal, val); err != nil {
			return err
		}
	}
	g.key = binary.BigEndian.AppendUint64(append(g.key[:0], prefix...), ^g.ts)
	if err := g.out.Set(g.key, val); err != nil {
		return err
	}
	if oldKey != nil {
		if err := g.out.Delete(oldKey); err != nil {
			return err
		}
	}
	if g.w != nil {
		k, v := g.w.keys.copyVersion(g.key, val)
		g.written = append(g.written, pendingWrite{e: e, prefix: prefix, key: k, val: v})
	}
	g.n++
	return nil
}

// resolve computes the value a key ends with.
func (g *groupWriter) resolve(prefix []byte, vals, masks [][]byte, oldVal []byte) ([]byte, error) {
	var given [][]byte // the columns each row gave, NULL or not; nil: masks
	if g.keepOld {
		var err error
		if masks, given, err = g.nullsKeepOld(prefix, vals, masks); err != nil {
			return nil, err
		}
	}
	partial := false
	for _, m := range masks {
		partial = partial || m != nil
	}
	switch {
	case g.t.Keys == catalog.AggKeys:
		var merged []types.Value
		if oldVal != nil {
			old, err := g.decode(prefix, oldVal)
			if err != nil {
				return nil, err
			}
			merged = old
		}
		for _, v := range vals {
			row, err := g.decode(prefix, v)
			if err != nil {
				return nil, err
			}
			if merged == nil {
				merged = row
			} else {
				merged = aggregate(g.t, merged, row)
			}
		}
		return g.rc.AppendValue(nil, merged), nil
	case !partial && g.seq < 0:
		return vals[len(vals)-1], nil // the newest row of the key wins
	case !partial:
		return g.resolveSequence(prefix, vals, oldVal)
	}
	if g.partial != nil && !g.partial.Flexible && !g.keepOld {
		row, err := g.resolveFixed(prefix, vals, masks, oldVal)
		if err != nil || row == nil {
			return nil, err
		}
		return g.rc.AppendValue(nil, row), nil
	}
	row, err := g.mergePartial(prefix, vals, masks, given, oldVal)
	if err != nil || row == nil {
		return nil, err
	}
	return g.rc.AppendValue(nil, row), nil
}

// nullsKeepOld turns the NULLs a row gives its value columns into columns
// the row lacks, so that they keep the current value; a delete keeps its
// mask. It returns the new masks and the masks as given (nil for a full
// row): a new key still takes the NULLs it was given.
func (g *groupWriter) nullsKeepOld(prefix []byte, vals, masks [][]byte) (keep, given [][]byte, err error) {
	keep = make([][]byte, len(vals))
	for i, v := range vals {
		keep[i] = masks[i]
		row, err := g.decode(prefix, v)
		if err != nil {
			return nil, nil, err
		}
		if g.deleted(row) && maskHas(masks[i], g.delSign) {
			continue
		}
		var m []byte
		for c, col := range g.t.Columns {
			if col.IsKey || col.Hidden || c == g.seqMap || !maskHas(masks[i], c) || !row[c].IsNull() {
				continue
			}
			if m == nil {
				m = make([]byte, (len(g.t.Columns)+7)/8)
				for j := range g.t.Columns {
					if maskHas(masks[i], j) {
						m[j/8] |= 1 << (j % 8)
					}
				}
			}
			m[c/8] &^= 1 << (c % 8)
		}
		if m != nil {
			keep[i] = m
		}
	}
	return keep, masks, nil
}

// resolveSequence picks the row with the highest sequence value (ties go
// to the later row, NULL is lowest); on merge-on-write tables a row below
// the current version's sequence value is discarded (nil).
func (g *groupWriter) resolveSequence(prefix []byte, vals [][]byte, oldVal []byte) ([]byte, error) {
	best := -1
	var bestSeq types.Value
	for i, v := range vals {
		row, err := g.decode(prefix, v)
		if err != nil {
			return nil, err
		}
		if best < 0 || catalog.CompareSequence(row[g.seq], bestSeq) >= 0 {
			best, bestSeq = i, row[g.seq]
		}
	}
	if oldVal != nil && g.t.MergeOnWrite() {
		old, err := g.decode(prefix, oldVal)
		if err != nil {
			return nil, err
		}
		if catalog.CompareSequence(bestSeq, old[g.seq]) < 0 {
			return nil, nil
		}
	}
	return vals[best], nil
}

func (g *groupWriter) decode(prefix, val []byte) ([]types.Value, error) {
	if g.added == nil {
		g.added = g.t.AddedValueFunc(time.UnixMilli(tso.Physical(g.ts)).UTC(), time.UTC)
	}
	row, err := decodeRow(g.rc, prefix, val, g.added)
	if err != nil {
		return nil, fmt.Errorf("cannot decode row of %s: %w", g.t.Name, err)
	}
	return row, nil
}

func (g *groupWriter) deleted(row []types.Value) bool {
	return g.delSign >= 0 && !row[g.delSign].IsNull() && row[g.delSign].I != 0
}

func maskHas(mask []byte, i int) bool { return mask == nil || mask[i/8]&(1<<(i%8)) != 0 }

// mergePartial folds the rows of one key over its current row: a full row
// replaces, a delete discards what came before, a partial row updates the
// columns it provides of the row so far, or starts a new row.
//
// given, when not nil, holds the columns each row gave including the NULLs
// masks leaves out (nullsKeepOld): a new row takes those NULLs.
func (g *groupWriter) mergePartial(prefix []byte, vals, masks, given [][]byte, oldVal []byte) ([]types.Value, error) {
	var existing, oldFull []types.Value
	if oldVal != nil {
		old, err := g.decode(prefix, oldVal)
		if err != nil {
			return nil, err
		}
		oldFull = old
		if !g.deleted(old) {
			existing = old
		}
	}
	var cur []types.Value
	touched, afterDelete := false, false
	// lacking: NOT NULL columns without a default the key's new row still
	// lacks (flexible): an error unless a later row gives them.
	var lacking []int
	var missing map[uint32]bool // flexible: columns missing from every merged row
	for i, v := range vals {
		row, err := g.decode(prefix, v)
		if err != nil {
			return nil, err
		}
		mask := masks[i]
		if g.seq >= 0 && maskHas(mask, g.seq) {
			// A row below the sequence value so far changes nothing.
			ref := cur
			if !touched {
				ref = oldFull
			}
			if ref != nil && catalog.CompareSequence(row[g.seq], ref[g.seq]) < 0 {
				continue
			}
		}
		if mask != nil && g.partial != nil && g.partial.Flexible && g.deleted(row) && maskHas(mask, g.delSign) {
			g.fillFlexibleDelete(row, mask, cur, existing, oldFull, touched, afterDelete)
			cur, touched, afterDelete, missing, lacking = row, true, true, nil, lacking[:0]
			continue
		}
		if mask == nil || (g.deleted(row) && maskHas(mask, g.delSign)) {
			cur, touched, afterDelete, missing, lacking = row, true, g.deleted(row), nil, lacking[:0]
			continue
		}
		base := existing
		if touched {
			base = nil
			if !afterDelete {
				base = cur
			}
		}
		next := make([]types.Value, len(row))
		newMask := mask // the columns a new row takes from row
		if given != nil {
			newMask = given[i]
		}
		if base != nil {
			copy(next, base)
		} else {
			var lack *[]int
			if g.partial != nil && g.partial.Flexible {
				lacking, lack = lacking[:0], &lacking
			}
			if err := g.fillNewLacking(next, row, newMask, touched, existing != nil, lack); err != nil {
				return nil, err
			}
			if g.seq >= 0 && !maskHas(mask, g.seq) && oldFull != nil {
				// A new row after a delete keeps the old sequence value,
				// in the sequence column and the column it copies.
				next[g.seq] = oldFull[g.seq]
				if g.seqMap >= 0 {
					next[g.seqMap] = oldFull[g.seqMap]
				}
			}
		}
		for c, col := range g.t.Columns {
			switch {
			case maskHas(mask, c), base == nil && maskHas(newMask, c):
				next[c] = row[c]
			case col.OnUpdateNow && base != nil && g.partial != nil:
				// ON UPDATE CURRENT_TIMESTAMP columns move even when missing.
				if d, err := col.DefaultValue(g.partial.Now, g.partial.Loc); err == nil {
					next[c] = d
				}
			}
		}
		if g.delSign >= 0 && !maskHas(mask, g.delSign) {
			next[g.delSign] = types.NewInt(types.TinyInt, 0)
		}
		rowMissing := g.missingOf(mask)
		if base == nil || missing == nil {
			missing = rowMissing
		} else {
			for uid := range missing {
				if !rowMissing[uid] {
					delete(missing, uid)
				}
			}
		}
		lacking = slices.DeleteFunc(lacking, func(c int) bool { return maskHas(mask, c) })
		cur, touched, afterDelete = next, true, false
	}
	if cur == nil {
		return nil, nil // every row lost to the sequence column
	}
	if len(lacking) > 0 {
		return nil, &CodedError{Code: "E-207", Msg: "the unmentioned column `" + g.t.Columns[lacking[0]].Name + "` should have default value or be nullable for newly inserted rows in non-strict mode flexible partial update"}
	}
	if g.partial != nil && g.partial.Flexible && g.skipBmp >= 0 && !afterDelete {
		uids := make([]uint32, 0, len(missing))
		for uid := range missing {
			uids = append(uids, uid)
		}
		cur[g.skipBmp] = types.NewString(types.Bitmap, expr.EncodeBitmap(uids))
	}
	return cur, nil
}

// missingOf lists the unique ids of the columns a flexible row did not
// carry: value columns, the delete sign and the sequence column.
func (g *groupWriter) missingOf(mask []byte) map[uint32]bool {
	out := map[uint32]bool{}
	for i, c := range g.t.Columns {
		if c.IsKey || c.Virtual || maskHas(mask, i) {
			continue
		}
		if c.Hidden && c.Name != catalog.DeleteSignCol && c.Name != catalog.SequenceCol {
			continue
		}
		out[uint32(c.UID)] = true
	}
	return out
}

// fillNew gives a new row the values of the columns the row lacks: the
// column default, else NULL; a NOT NULL column without a default fails a
// new key, and takes its type's zero after a delete in the same load.
func (g *groupWriter) fillNew(next, row []types.Value, mask []byte, afterDelete, inTable bool) error {
	return g.fillNewLacking(next, row, mask, afterDelete, inTable, nil)
}

// fillNewLacking is fillNew; with lacking set, a NOT NULL column without
// a default takes its type's zero and is added to *lacking instead of
// failing (a later row of the key in the load may give it: Doris checks the
// key's merged row).
func (g *groupWriter) fillNewLacking(next, row []types.Value, mask []byte, afterDelete, inTable bool, lacking *[]int) error {
	p := g.partial
	if p == nil {
		p = &Partial{Now: time.Now(), Loc: time.UTC}
	}
	if p.NewKeyError && !inTable { // also when this load deleted and re-created it
		var keys []string
		for i, c := range g.t.Columns {
			if c.IsKey {
				keys = append(keys, types.Format(row[i], p.Loc))
			}
		}
		return &CodedError{Code: "E-7003", Msg: "Can't append new rows in partial update when partial_update_new_key_behavior is ERROR. Row with key=[" + strings.Join(keys, ", ") + "] is not in table."}
	}
	for i, c := range g.t.Columns {
		if maskHas(mask, i) || c.Virtual {
			continue
		}
		if c.AutoInc && g.autoInc != nil {
			v, err := g.autoInc(g.t, i) // a new row gets a fresh id
			if err != nil {
				return err
			}
			next[i] = v
			continue
		}
		d, err := c.DefaultValue(p.Now, p.Loc)
		switch {
		case err == nil:
			next[i] = d
		case afterDelete:
			next[i] = types.Zero(c.Type)
		case lacking != nil:
			next[i] = types.Zero(c.Type)
			*lacking = append(*lacking, i)
		default:
			what := "partial update"
			if p.Flexible {
				what = "flexible partial update"
			}
			return &CodedError{Code: "E-207", Msg: "the unmentioned column `" + c.Name + "` should have default value or be nullable for newly inserted rows in non-strict mode " + what}
		}
	}
	if g.seq >= 0 {
		g.seqFromMapDefault(next, mask, !maskHas(mask, g.seq))
	}
	return nil
}
