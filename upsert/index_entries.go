package upsert

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"time"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
)

// Inverted index entries. A single-column INVERTED index without a parser
// on an integer, DATE, DATETIME, DECIMAL or string column of a Duplicate
// Key table is stored as one entry per row:
//
//	I | table id | index id | column value (keyenc.go) | row key past the table prefix → (empty)
//
// The row key's remainder is the row's key columns and its TSO | LSN
// suffix, so an entry names exactly one stored row; rows of a Duplicate
// Key table never change in place. This package owns the format: it
// writes the entries in the same batch (or ingestion) as the rows and
// removes them with them. A reader looks up a value's entries and fetches
// the rows they name at its snapshot: the row's own visibility (the
// snapshot, TTL, a DELETE that removed it) decides, so an entry whose row
// is gone is harmless, and only a missing entry would be a wrong answer.
//
// Indexes of other kinds, on other column types, or on Unique and
// Aggregate Key tables stay declarations (catalog.Index with ID 0).

// IndexCol is a built index: its id and the position and type of its
// column in the table.
type IndexCol struct {
	ID   int64
	Name string
	Col  int
	Type types.Type
}

// Indexable reports whether ix on t can be built, and the position of its
// column: a non-analyzed single-column INVERTED index of a Duplicate Key
// table on a column whose stored value never depends on the reading
// statement (no CURRENT_TIMESTAMP default filling rows written before the
// column was added).
func Indexable(t *catalog.Table, ix catalog.Index) (int, bool) {
	if t.Keys != catalog.DupKeys || len(ix.Columns) != 1 {
		return -1, false
	}
	if ix.Type != "" && !strings.EqualFold(ix.Type, "INVERTED") {
		return -1, false
	}
	if p := strings.ToLower(ix.Properties["parser"]); p != "" && p != "none" {
		return -1, false
	}
	c, i := t.Column(ix.Columns[0])
	if c == nil || c.Virtual || c.Hidden {
		return -1, false
	}
	if d := c.Default; d != nil && (d.Kind == catalog.DefaultCurrentTimestamp || d.Kind == catalog.DefaultCurrentDate) {
		return -1, false
	}
	k := c.Type.Kind
	switch {
	case k >= types.TinyInt && k <= types.LargeInt, k == types.Date, k == types.DateTime, k == types.Decimal,
		types.IsString(k):
		return i, true
	}
	return -1, false
}

// BuiltIndexes lists the indexes of t whose entries are stored: those with
// an id whose column still has the type they were built for.
func BuiltIndexes(t *catalog.Table) []IndexCol {
	var out []IndexCol
	for _, ix := range t.Indexes {
		if ix.ID == 0 {
			continue
		}
		col, ok := Indexable(t, ix)
		if !ok || t.Columns[col].UID != ix.ColUID || !t.Columns[col].Type.Equal(ix.ColType) {
			continue
		}
		out = append(out, IndexCol{ID: ix.ID, Name: ix.Name, Col: col, Type: t.Columns[col].Type})
	}
	return out
}

// IndexTablePrefix is the prefix of every index entry of table id.
func IndexTablePrefix(tableID int64) []byte {
	return binary.BigEndian.AppendUint64([]byte(storage.PrefixIndex), uint64(tableID))
}

// IndexPrefix is the prefix of the entries of one index.
func IndexPrefix(tableID, indexID int64) []byte {
	return binary.BigEndian.AppendUint64(IndexTablePrefix(tableID), uint64(indexID))
}

// AppendIndexValue appends to an IndexPrefix the prefix of the entries of
// value v of the index's column type t.
func AppendIndexValue(dst []byte, v types.Value, t types.Type) []byte {
	return storage.AppendKey(dst, v, t)
}

// IndexEntryRowKey appends to dst the full row key an entry of ic names:
// rc's table prefix and the entry's remainder past its value.
func IndexEntryRowKey(dst []byte, rc *catalog.RowCodec, ic IndexCol, entry []byte) ([]byte, error) {
	b := entry[len(storage.PrefixIndex)+16:]
	_, rest, err := storage.DecodeKey(b, ic.Type)
	if err != nil {
		return dst, fmt.Errorf("cannot decode an entry of index %s: %w", ic.Name, err)
	}
	return append(append(dst, rc.Prefix()...), rest...), nil
}

// IndexEntryRowKeyOf is IndexEntryRowKey for an entry of the value whose
// entries start with vp (an AppendIndexValue prefix), without decoding
// the value: its encoding is prefix-free (fixed width, or a terminated
// string), so the entry past vp is the row key past the table prefix.
func IndexEntryRowKeyOf(dst []byte, rc *catalog.RowCodec, vp, entry []byte) []byte {
	if !bytes.HasPrefix(entry, vp) {
		panic(fmt.Sprintf("BUG: index entry %x is not one of value prefix %x", entry, vp))
	}
	return append(append(dst, rc.Prefix()...), entry[len(vp):]...)
}

// indexer builds the entries of a table's built indexes from its stored
// rows.
type indexer struct {
	rc      *catalog.RowCodec
	cols    []IndexCol
	proj    *catalog.Projection
	keyN    int
	row     []types.Value
	scratch []types.Value
	fill    func(col int) types.Value
	buf     []byte
}

// newIndexer returns the indexer of rc's table, or nil when it has no
// built index.
func newIndexer(rc *catalog.RowCodec) *indexer {
	return newIndexerOf(rc, BuiltIndexes(rc.Table()))
}

func newIndexerOf(rc *catalog.RowCodec, cols []IndexCol) *indexer {
	if len(cols) == 0 {
		return nil
	}
	t := rc.Table()
	need := make([]bool, len(t.Columns))
	for _, c := range cols {
		need[c.Col] = true
	}
	// Indexable columns have constant defaults: any reference time fills
	// them alike.
	return &indexer{rc: rc, cols: cols, proj: rc.NewProjection(need), keyN: rc.KeyColumnsRead(need),
		row: make([]types.Value, len(t.Columns)), fill: t.AddedValueFunc(time.Unix(0, 0), time.UTC)}
}

// entries calls fn with the entry key of each index for the stored row
// (full row key, stored value). The entry is valid during the call only.
func (x *indexer) entries(key, val []byte, fn func(entry []byte) error) error {
	if err := x.rc.DecodeKeyN(key, x.row, x.keyN); err != nil {
		return fmt.Errorf("cannot decode key of %s: %w", x.rc.Table().Name, err)
	}
	var err error
	if x.scratch, err = x.rc.DecodeValueMask(val, x.row, x.scratch, x.fill, x.proj); err != nil {
		return fmt.Errorf("cannot decode row of %s: %w", x.rc.Table().Name, err)
	}
	rest := key[len(x.rc.Prefix()):]
	for _, c := range x.cols {
		x.buf = IndexPrefix(x.rc.Table().ID, c.ID)
		x.buf = storage.AppendKey(x.buf, x.row[c.Col], c.Type)
		x.buf = append(x.buf, rest...)
		if err := fn(x.buf); err != nil {
			return err
		}
	}
	return nil
}

// appendDupIndex adds the index entries of the rows appendDup wrote at ts
// (row i of set has LSN i), sorted: the memtable takes keys in order much
// faster than scattered ones.
func appendDupIndex(out kvWriter, rc *catalog.RowCodec, set *encodedRows, ts uint64) error {
	x := newIndexer(rc)
	if x == nil {
		return nil
	}
	var es sortedEntries
	var key []byte
	for i := 0; i < set.len(); i++ {
		e := set.row(i)
		key = binary.BigEndian.AppendUint64(append(key[:0], e.key...), ts)
		key = binary.BigEndian.AppendUint32(key, uint32(i))
		if err := x.entries(key, e.val, es.add); err != nil {
			return err
		}
	}
	return es.write(func(k []byte) error { return out.Set(k, nil) })
}

// sortedEntries collects entry keys in one arena to write them in order.
type sortedEntries struct {
	arena []byte
	ends  []int
	keys  [][]byte // write's, kept for the next batch
}

func (s *sortedEntries) add(e []byte) error {
	s.arena = append(s.arena, e...)
	s.ends = append(s.ends, len(s.arena))
	return nil
}

// size is the bytes collected.
func (s *sortedEntries) size() int { return len(s.arena) }

// write calls fn with each entry in key order and empties s.
func (s *sortedEntries) write(fn func(k []byte) error) error {
	keys := s.keys[:0]
	start := 0
	for _, end := range s.ends {
		keys = append(keys, s.arena[start:end:end])
		start = end
	}
	slices.SortFunc(keys, bytes.Compare)
	for _, k := range keys {
		if err := fn(k); err != nil {
			return err
		}
	}
	clear(keys)
	s.arena, s.ends, s.keys = s.arena[:0], s.ends[:0], keys[:0]
	return nil
}

// BuildIndex adds to b the entries of index ic for every stored row of
// rc's table read from r (ADD INDEX on a table with rows).
func BuildIndex(b *storage.Batch, r storage.Reader, rc *catalog.RowCodec, ic IndexCol) error {
	return IndexEntriesOfRows(r, rc, ic, func(entry []byte) error { b.Set(entry, nil); return nil })
}

// IndexEntriesOfRows calls fn with the entry of index ic of each stored row
// of rc's table read from r, in row key order: what the index holds when it
// is consistent. The entry is valid during the call only.
func IndexEntriesOfRows(r storage.Reader, rc *catalog.RowCodec, ic IndexCol, fn func(entry []byte) error) error {
	x := newIndexerOf(rc, []IndexCol{ic})
	vs, err := rc.Versions(r, rc.Prefix())
	if err != nil {
		return err
	}
	defer vs.Close()
	for vs.Next() {
		if err := x.entries(vs.Key(), vs.Value(), fn); err != nil {
			return err
		}
	}
	return vs.Close()
}

// DropIndex adds to b the removal of the entries of index id of a table.
func DropIndex(b *storage.Batch, tableID, indexID int64) {
	p := IndexPrefix(tableID, indexID)
	b.DeleteRange(p, storage.PrefixEnd(p))
}

// IndexRemover returns what adds to a batch the removal of the entries of
// a stored row (key, val) of rc's table (a dropped partition's rows); nil
// when the table has no built index.
func IndexRemover(rc *catalog.RowCodec) func(b *storage.Batch, key, val []byte) error {
	x := newIndexer(rc)
	if x == nil {
		return nil
	}
	return func(b *storage.Batch, key, val []byte) error {
		return x.entries(key, val, func(entry []byte) error { b.Delete(entry); return nil })
	}
}

// stagedIndex writes the index entries of a staged load's rows into
// table files of their own, one per index, ingested with the rows in the
// load's one ingestion: readers and a crash see the rows and their
// entries together or neither. Entries sort apart from the rows (by value),
// so they are collected in memory up to stagedIndexBatch bytes, then
// sorted and written to a temporary run file (storage.KeyRun); at the end
// the runs are merged into the index files. Each file holds one index's
// entries in order and spans only that index's key range, so, like the
// rows' file, it lands below L0 unless it overlaps data there. (They were
// committed in sorted batches through the memtable before: at TPC-H SF1
// lineitem's three indexes left over a hundred overlapping files in L0
// and hundreds of MB of compactions after the load.)
type stagedIndex struct {
	db   *storage.DB
	x    *indexer
	es   sortedEntries
	runs []*storage.KeyRun
}

// stagedIndexBatch is the size at which the entries collected are sorted
// and written to a run; also the size of the merge's read buffers. A
// variable for tests.
var stagedIndexBatch = 16 << 20

func newStagedIndex(db *storage.DB, rc *catalog.RowCodec) *stagedIndex {
	x := newIndexer(rc)
	if x == nil {
		return nil
	}
	return &stagedIndex{db: db, x: x}
}

// indexSpans lists the key ranges of the entries of rc's built indexes,
// in key order.
func indexSpans(rc *catalog.RowCodec) [][2][]byte {
	cols := BuiltIndexes(rc.Table())
	slices.SortFunc(cols, func(a, b IndexCol) int { return cmp.Compare(uint64(a.ID), uint64(b.ID)) })
	var spans [][2][]byte
	for _, c := range cols {
		p := IndexPrefix(rc.Table().ID, c.ID)
		spans = append(spans, [2][]byte{p, storage.PrefixEnd(p)})
	}
	return spans
}

// add adds the entries of the row (key, val).
func (s *stagedIndex) add(key, val []byte) error {
	if s == nil {
		return nil
	}
	if err := s.x.entries(key, val, s.es.add); err != nil {
		return err
	}
	if s.es.size() >= stagedIndexBatch {
		return s.spill()
	}
	return nil
}

// spill writes the entries collected, sorted, to a new run.
func (s *stagedIndex) spill() error {
	r, err := s.db.NewKeyRun()
	if err != nil {
		return err
	}
	s.runs = append(s.runs, r)
	if err := s.es.write(r.Add); err != nil {
		return err
	}
	return r.Close()
}

// files writes every entry, in key order, into one table file per index
// (an index without entries gets none): straight from memory when they
// never filled a batch, else merged from the runs. The caller ingests or
// abandons the files.
func (s *stagedIndex) files() ([]*storage.SSTWriter, error) {
	if s == nil {
		return nil, nil
	}
	var out []*storage.SSTWriter
	var cur []byte // the IndexPrefix of out's last file
	add := func(k []byte) error {
		p := k[:len(storage.PrefixIndex)+16]
		if len(out) == 0 || !bytes.Equal(p, cur) {
			f, err := s.db.NewSSTWriter()
			if err != nil {
				return err
			}
			out = append(out, f)
			cur = append(cur[:0], p...)
		}
		return out[len(out)-1].Set(k, nil)
	}
	var err error
	if len(s.runs) == 0 {
		err = s.es.write(add)
	} else {
		if s.es.size() > 0 {
			err = s.spill()
		}
		s.es = sortedEntries{} // the merge reads through buffers of its own
		if err == nil {
			err = storage.MergeKeyRuns(s.runs, stagedIndexBatch, add)
		}
	}
	if err != nil {
		for _, f := range out {
			f.Abandon()
		}
		return nil, err
	}
	return out, nil
}

// close removes the runs.
func (s *stagedIndex) close() {
	if s == nil {
		return
	}
	for _, r := range s.runs {
		r.Remove()
	}
	s.runs = nil
	s.es = sortedEntries{}
}

// IndexEntryKeys returns what calls fn with the key of each index entry of
// a stored row (key, val) of rc's table, for a remover that deletes keys
// (row TTL reclamation); nil when the table has no built index. The entry
// is valid during the call only.
func IndexEntryKeys(rc *catalog.RowCodec) func(key, val []byte, fn func(entry []byte)) error {
	x := newIndexer(rc)
	if x == nil {
		return nil
	}
	return func(key, val []byte, fn func(entry []byte)) error {
		return x.entries(key, val, func(entry []byte) error { fn(entry); return nil })
	}
}
