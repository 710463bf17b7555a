package upsert

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
)

// Stager collects the rows of one transaction so that memory stays bounded
// by configuration, not by the size of the load. Up to MemBytes of rows it
// keeps them in memory and commits them in one batch. Past that it spills
// them to a staging key range,
//
//	storage.PrefixStage | txn id (8 bytes) | table key prefix of the row | sequence (8 bytes)
//
// where the store keeps them sorted by table key; publishing then walks the
// staged rows in key order, merges them with the table's current versions
// and ingests the result (a file within the table's key range), the change
// records, the index entries (a file per index, index_entries.go), the
// transaction record and the removal of the staging range (small files
// beside them) in one ingestion: atomic and durable in one step.
type Stager struct {
	w       *Writer
	rc      *catalog.RowCodec
	txnID   int64
	max     int
	mem     encodedRows
	spilled bool
	b       *storage.Batch
	seq     uint64
	key     []byte
	val     []byte
	skey    []byte
	sval    []byte
	partial *Partial
	mask    []byte
	queued  func()
}

// SetQueued makes Commit call f once the transaction's rows are in its
// commit group's batch and no longer held by s, before the commit waits
// for the group's fsync (f is not called for a commit that writes alone:
// a spilled or large one).
func (s *Stager) SetQueued(f func()) { s.queued = f }

// SetPartial makes the transaction a partial update: rows added with
// AddPartial update only the columns they provide.
func (s *Stager) SetPartial(p *Partial) { s.partial = p }

// AddPartial stages a row that provides only the columns with provided[i]
// set (key columns must be provided).
func (s *Stager) AddPartial(row []types.Value, provided []bool) error {
	s.mask = s.mask[:0]
	for i := 0; i < (len(provided)+7)/8; i++ {
		s.mask = append(s.mask, 0)
	}
	for i, p := range provided {
		if p {
			s.mask[i/8] |= 1 << (i % 8)
		}
	}
	return s.add(row, s.mask)
}

// DefaultStageMemBytes is how many bytes of rows a load keeps in memory
// before it spills to the staging range.
const DefaultStageMemBytes = 96 << 20

// spillBatchBytes is the size of one unsynced staging batch.
const spillBatchBytes = 16 << 20

// NewStager starts staging the rows of transaction txnID for the table of
// rc. memBytes <= 0 means DefaultStageMemBytes.
func (w *Writer) NewStager(rc *catalog.RowCodec, txnID int64, memBytes int) *Stager {
	if memBytes <= 0 {
		memBytes = DefaultStageMemBytes
	}
	return &Stager{w: w, rc: rc, txnID: txnID, max: memBytes}
}

// StagePrefix is the staging key range of a transaction.
func StagePrefix(txnID int64) []byte {
	return binary.BigEndian.AppendUint64([]byte(storage.PrefixStage), uint64(txnID))
}

// Spilled reports whether rows went to the staging range.
func (s *Stager) Spilled() bool { return s.spilled }

// Add stages one full row; the Stager does not keep the slice.
func (s *Stager) Add(row []types.Value) error { return s.add(row, nil) }

func (s *Stager) add(row []types.Value, mask []byte) error {
	if s.spilled {
		s.key = s.rc.AppendKeyPrefix(s.key[:0], row)
		s.val = s.rc.AppendValue(s.val[:0], row)
		return s.spill(s.key, s.val, mask)
	}
	s.mem.add(s.rc, row, mask)
	if s.mem.bytes <= s.max {
		return nil
	}
	return s.spillMemory()
}

// spillMemory moves the rows held in memory to the staging range; rows
// added later go there directly.
func (s *Stager) spillMemory() error {
	s.spilled = true
	mem := s.mem
	s.mem = encodedRows{}
	defer mem.release() // the spilled batches hold copies
	for i := 0; i < mem.len(); i++ {
		e := mem.row(i)
		if err := s.spill(e.key, e.val, e.mask); err != nil {
			return err
		}
	}
	return s.writeMeta()
}

// Staged values carry a header: 0 for a full row; 1, the mask's length and
// the mask for a partial one. The staging range's first key (a 0 byte after
// the prefix) records the Partial options, so a two-phase-commit partial
// update commits with them later.
func appendStaged(dst, mask, val []byte) []byte {
	if mask == nil {
		dst = append(dst, 0)
	} else {
		dst = append(dst, 1)
		dst = binary.AppendUvarint(dst, uint64(len(mask)))
		dst = append(dst, mask...)
	}
	return append(dst, val...)
}

func splitStaged(v []byte) (mask, val []byte, err error) {
	if len(v) == 0 {
		return nil, nil, fmt.Errorf("upsert: empty staged value")
	}
	if v[0] == 0 {
		return nil, v[1:], nil
	}
	n, k := binary.Uvarint(v[1:])
	if k <= 0 || uint64(len(v)-1-k) < n {
		return nil, nil, fmt.Errorf("upsert: corrupt staged value")
	}
	return v[1+k : 1+k+int(n)], v[1+k+int(n):], nil
}

type stagedMeta struct {
	Flexible    bool
	NewKeyError bool
	NowMicros   int64
	Loc         string
}

func metaKey(txnID int64) []byte { return append(StagePrefix(txnID), 0) }

func (s *Stager) writeMeta() error {
	if s.partial == nil {
		return nil
	}
	if s.b == nil {
		s.b = s.w.db.NewBatch()
	}
	loc := "UTC"
	if s.partial.Loc != nil {
		loc = s.partial.Loc.String()
	}
	b, err := json.Marshal(stagedMeta{Flexible: s.partial.Flexible, NewKeyError: s.partial.NewKeyError, NowMicros: s.partial.Now.UnixMicro(), Loc: loc})
	if err != nil {
		return err
	}
	s.b.Set(metaKey(s.txnID), b)
	return nil
}

func readMeta(db *storage.DB, txnID int64) (*Partial, error) {
	b, err := db.Get(metaKey(txnID))
	if err == storage.ErrNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m stagedMeta
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	loc, err := time.LoadLocation(m.Loc)
	if err != nil {
		loc = time.UTC
	}
	return &Partial{Flexible: m.Flexible, NewKeyError: m.NewKeyError, Now: time.UnixMicro(m.NowMicros), Loc: loc}, nil
}

// spill writes one encoded row under its staging key.
func (s *Stager) spill(keyPrefix, val, mask []byte) error {
	if s.b == nil {
		s.b = s.w.db.NewBatch()
	}
	s.skey = append(append(s.skey[:0], StagePrefix(s.txnID)...), keyPrefix...)
	s.skey = binary.BigEndian.AppendUint64(s.skey, s.seq)
	s.seq++
	s.sval = appendStaged(s.sval[:0], mask, val)
	s.b.Set(s.skey, s.sval)
	if s.b.Len() >= spillBatchBytes {
		return s.flush()
	}
	return nil
}

func (s *Stager) flush() error {
	if s.b == nil || s.b.Empty() {
		return nil
	}
	err := s.w.checkSpace(int64(s.b.Len()))
	if err == nil {
		err = s.b.CommitNoSync()
	}
	s.b.Close()
	s.b = nil
	return err
}

// Persist makes every row durable in the staging range together with the
// writes of extra (the PRECOMMITTED record of a two-phase-commit load), in
// one synced batch.
func (s *Stager) Persist(extra func(b *storage.Batch) error) error {
	if !s.spilled {
		if err := s.spillMemory(); err != nil {
			return err
		}
	} else if err := s.writeMeta(); err != nil {
		return err
	}
	if s.b == nil {
		s.b = s.w.db.NewBatch()
	}
	defer func() { s.b.Close(); s.b = nil }()
	if err := s.w.checkSpace(int64(s.b.Len())); err != nil {
		return err
	}
	if err := extra(s.b); err != nil {
		return err
	}
	return s.b.Commit()
}

// Discard drops whatever was staged.
func (s *Stager) Discard() error {
	if s.b != nil {
		s.b.Close()
		s.b = nil
	}
	s.mem.release()
	if !s.spilled {
		return nil
	}
	return DropStaged(s.w.db, s.txnID)
}

// DropStaged removes the staged rows of a transaction.
func DropStaged(db *storage.DB, txnID int64) error {
	err := db.Update(func(b *storage.Batch) error {
		dropStagedIn(b, txnID)
		return nil
	})
	if err != nil {
		return err
	}
	dropStagedFiles(db, txnID)
	return nil
}

// dropStagedFiles removes the files of the staging range of txnID once a
// committed range deletion removed its rows (see dropStagedIn): without
// it, the staged rows (a large load's whole size, flushed into L0) stay on
// disk until compactions have rewritten them down to the deletion, which
// kept the store's compactions busy for tens of seconds after a large
// load (BENCHMARKS.md, "TPC-H first runs"). Staged rows smaller than
// dropFilesMinBytes are left to compactions: they share their files with
// other writes, and dropping them would only split those files (and
// write the store's file list once more per small two-phase-commit load).
// A failure is left to compactions too: the rows are already deleted,
// only their space waits.
func dropStagedFiles(db *storage.DB, txnID int64) {
	p := StagePrefix(txnID)
	if n, err := db.DiskUsage(p, storage.PrefixEnd(p)); err == nil {
		dropStagedFilesOf(db, txnID, n)
	}
}

// dropStagedFilesOf is dropStagedFiles for staged rows known to take
// staged bytes on disk.
func dropStagedFilesOf(db *storage.DB, txnID int64, staged uint64) {
	if staged < dropFilesMinBytes {
		return
	}
	p := StagePrefix(txnID)
	_ = db.DropFiles(context.Background(), p, storage.PrefixEnd(p))
}

// dropFilesMinBytes is the size on disk of staged rows from which
// dropStagedFiles drops their files: about one flushed memtable. A
// variable for tests.
var dropFilesMinBytes uint64 = 32 << 20

// dropStagedIn adds to b the removal of the staging range of txnID.
func dropStagedIn(b *storage.Batch, txnID int64) {
	p := StagePrefix(txnID)
	b.DeleteRange(p, storage.PrefixEnd(p))
}

// Commit publishes the staged rows with a new TSO. extra adds the
// transaction record; it runs once the TSO is known and its writes commit
// atomically with the rows.
func (s *Stager) Commit(extra func(b *storage.Batch, tso uint64) error) (Result, error) {
	if !s.spilled {
		defer s.mem.release() // the commit is done with the rows
		var queued func()
		if s.queued != nil {
			queued = func() {
				s.mem.release() // in the group's batch now
				s.queued()
			}
		}
		return s.w.commitEncoded(s.rc, &s.mem, extra, s.partial, queued)
	}
	if err := s.flush(); err != nil {
		return Result{}, err
	}
	return s.w.publishStaged(s.rc, s.txnID, extra, s.partial)
}

// CommitStaged publishes the rows a two-phase-commit load persisted.
func (w *Writer) CommitStaged(rc *catalog.RowCodec, txnID int64, extra func(b *storage.Batch, tso uint64) error) (Result, error) {
	partial, err := readMeta(w.db, txnID)
	if err != nil {
		return Result{}, err
	}
	return w.publishStaged(rc, txnID, extra, partial)
}

// publishStaged merges the staging range of txnID into the table and
// ingests the result with the extra writes and the staging range's removal;
// once that is committed, and the writer unlocked, it drops the staging
// range's files when they are large enough (dropStagedFilesOf).
func (w *Writer) publishStaged(rc *catalog.RowCodec, txnID int64, extra func(b *storage.Batch, tso uint64) error, partial *Partial) (Result, error) {
	sp := StagePrefix(txnID)
	staged, err := w.db.DiskUsage(sp, storage.PrefixEnd(sp))
	if err != nil {
		return Result{}, err
	}
	if err := w.checkSpace(int64(staged)); err != nil {
		return Result{}, err
	}
	res, err := w.publishStagedLocked(rc, txnID, extra, partial)
	if err == nil {
		dropStagedFilesOf(w.db, txnID, staged)
	}
	return res, err
}

// publishStagedLocked is publishStaged's ingestion, under the writer's lock.
func (w *Writer) publishStagedLocked(rc *catalog.RowCodec, txnID int64, extra func(b *storage.Batch, tso uint64) error, partial *Partial) (Result, error) {
	// The ingestion reads the store: every commit must be in it.
	if err := w.LockWritable(); err != nil {
		return Result{}, err
	}
	defer w.mu.Unlock()
	if err := w.checkLayout(rc); err != nil {
		return Result{}, err
	}
	ts, err := w.oracle.Next()
	if err != nil {
		return Result{}, err
	}
	// The rows go to a file of their own that spans only the table's key
	// range (it holds no range deletion and overlaps no other table, so
	// it can land below L0); the change records to another; the other
	// writes (label and txn records, the staging range's removal, the
	// version key) to small files around them. One ingestion adds them
	// all at once.
	// A Duplicate Key table's index entries go to a file per index
	// (stagedIndex); their ranges sort before the change records' and the
	// rows'.
	spans := indexSpans(rc)
	if binlog.Enabled(rc.Table()) {
		bp := binlog.Prefix(rc.Table().ID)
		spans = append(spans, [2][]byte{bp, storage.PrefixEnd(bp)})
	}
	spans = append(spans, rowsSpan(rc))
	small, err := w.extraEntries(rc, txnID, ts, extra, spans)
	if err != nil {
		return Result{}, err
	}
	sst, err := w.db.NewSSTWriter()
	if err != nil {
		return Result{}, err
	}
	files := []*storage.SSTWriter{sst}
	abandon := func() {
		for _, f := range files {
			f.Abandon()
		}
	}
	var rec *binlog.Recorder
	if binlog.Enabled(rc.Table()) {
		bsst, err := w.db.NewSSTWriter()
		if err != nil {
			abandon()
			return Result{}, err
		}
		files = append(files, bsst)
		rec = binlog.NewRecorder(rc, ts, bsst)
	}
	for _, entries := range small {
		if len(entries) == 0 {
			continue
		}
		f, err := w.db.NewSSTWriter()
		if err != nil {
			abandon()
			return Result{}, err
		}
		files = append(files, f)
		if err := writeEntries(f, entries); err != nil {
			abandon()
			return Result{}, err
		}
	}
	var ix *stagedIndex
	if rc.Table().Keys == catalog.DupKeys {
		ix = newStagedIndex(w.db, rc)
		defer ix.close()
	}
	n, err := w.writeStaged(sst, rec, rc, txnID, ts, partial, ix)
	if err != nil {
		abandon()
		return Result{}, err
	}
	ixFiles, err := ix.files()
	if err != nil {
		abandon()
		return Result{}, err
	}
	files = append(files, ixFiles...)
	err = storage.FinishAll(w.db, files...)
	w.changedOutside() // also after a failed ingestion: it may have happened
	if err != nil {
		return Result{}, err
	}
	w.published.Store(ts)
	w.binlogWritten.Add(rec.Records())
	return Result{TSO: ts, Written: n}, nil
}

// rowsSpan is the key range of the rows of rc's table.
func rowsSpan(rc *catalog.RowCodec) [2][]byte {
	return [2][]byte{rc.Prefix(), storage.PrefixEnd(rc.Prefix())}
}

// extraEntries runs extra on a scratch batch and returns its writes, the
// staging range's removal and the table's version key, sorted and split
// around spans (sorted key ranges [lo, hi) that other files of the
// ingestion hold): small[i] lies between spans[i-1] and spans[i], so each
// group fits in a file that overlaps none of them. A write inside a span
// is an error.
func (w *Writer) extraEntries(rc *catalog.RowCodec, txnID int64, ts uint64, extra func(b *storage.Batch, tso uint64) error, spans [][2][]byte) (small [][]storage.BatchEntry, err error) {
	b := w.db.NewBatch()
	defer b.Close()
	if extra != nil {
		if err := extra(b, ts); err != nil {
			return nil, err
		}
	}
	dropStagedIn(b, txnID)
	b.Set(versionKey(rc.Table().ID, ts), nil)
	entries, err := b.Entries()
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(entries, func(a, c storage.BatchEntry) int { return bytes.Compare(a.Key, c.Key) })
	small = make([][]storage.BatchEntry, len(spans)+1)
	i := 0 // the spans before i end at or before the entry
	for _, e := range entries {
		for i < len(spans) && bytes.Compare(spans[i][1], e.Key) <= 0 {
			i++
		}
		if i < len(spans) {
			lo := spans[i][0]
			if bytes.Compare(e.Key, lo) >= 0 || (e.Kind == 'R' && bytes.Compare(e.Value, lo) > 0) {
				return nil, fmt.Errorf("upsert: extra write %q overlaps the rows, change records or index entries of table %s", e.Key, rc.Table().Name)
			}
		}
		small[i] = append(small[i], e)
	}
	return small, nil
}

func writeEntries(sst *storage.SSTWriter, entries []storage.BatchEntry) error {
	for _, e := range entries {
		var err error
		switch e.Kind {
		case 'S':
			err = sst.Set(e.Key, e.Value)
		case 'D':
			err = sst.Delete(e.Key)
		case 'R':
			err = sst.DeleteRange(e.Key, e.Value)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// writeStaged writes the rows' file: the staged rows merged with the
// current versions.
// ix collects a Duplicate Key table's index entries (nil without indexes).
func (w *Writer) writeStaged(sst *storage.SSTWriter, rec *binlog.Recorder, rc *catalog.RowCodec, txnID int64, ts uint64, partial *Partial, ix *stagedIndex) (int, error) {
	sp := StagePrefix(txnID)
	it, err := w.db.NewIter(append(append([]byte(nil), sp...), 1), storage.PrefixEnd(sp)) // past the meta key
	if err != nil {
		return 0, err
	}
	defer it.Close()
	var n int
	if rc.Table().Keys == catalog.DupKeys {
		n, err = writeStagedDup(sst, rec, it, len(sp), ts, ix)
	} else {
		n, err = w.writeStagedUnique(sst, rec, it, rc, len(sp), ts, partial)
	}
	if err != nil {
		return 0, err
	}
	if err := it.Close(); err != nil {
		return 0, err
	}
	if err := rec.Flush(); err != nil { // the records' own file
		return 0, err
	}
	return n, nil
}

// writeStagedDup appends every staged row: key prefix | tso | lsn, and
// hands it to ix for its index entries (index_entries.go).
func writeStagedDup(sst *storage.SSTWriter, rec *binlog.Recorder, it *storage.Iter, skip int, ts uint64, ix *stagedIndex) (int, error) {
	var key []byte
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		k := it.Key()
		_, val, err := splitStaged(it.Value())
		if err != nil {
			return 0, err
		}
		key = append(key[:0], k[skip:len(k)-8]...)
		key = binary.BigEndian.AppendUint64(key, ts)
		key = binary.BigEndian.AppendUint32(key, uint32(n))
		if err := sst.Set(key, val); err != nil {
			return 0, err
		}
		if err := ix.add(key, val); err != nil {
			return 0, err
		}
		if rec != nil {
			if err := rec.Insert(k[skip:len(k)-8], val); err != nil {
				return 0, err
			}
		}
		n++
	}
	return n, nil
}

// writeStagedUnique resolves the staged rows key by key (see groupWriter).
func (w *Writer) writeStagedUnique(sst *storage.SSTWriter, rec *binlog.Recorder, it *storage.Iter, rc *catalog.RowCodec, skip int, ts uint64, partial *Partial) (int, error) {
	g, err := newGroupWriter(w, rc, ts, partial, sst, nil)
	if err == nil {
		g.rec = rec
	}
	if err != nil {
		return 0, err
	}
	defer g.close()
	var prefix []byte
	var vals, masks [][]byte
	flush := func() error {
		if prefix == nil {
			return nil
		}
		return g.add(prefix, vals, masks)
	}
	for ok := it.First(); ok; ok = it.Next() {
		k := it.Key()
		p := k[skip : len(k)-8]
		if prefix != nil && !bytes.Equal(p, prefix) {
			if err := flush(); err != nil {
				return 0, err
			}
			vals, masks = vals[:0], masks[:0]
		}
		prefix = append(prefix[:0], p...)
		mask, val, err := splitStaged(it.Value())
		if err != nil {
			return 0, err
		}
		vals = append(vals, append([]byte(nil), val...))
		if mask != nil {
			mask = append([]byte(nil), mask...)
		}
		masks = append(masks, mask)
	}
	if err := flush(); err != nil {
		return 0, err
	}
	return g.n, nil
}

// decodeRow decodes a full row from a row key prefix (table prefix and key
// columns) and a stored value.
func decodeRow(rc *catalog.RowCodec, prefix, value []byte, fill func(col int) types.Value) ([]types.Value, error) {
	row := make([]types.Value, len(rc.Table().Columns))
	if err := rc.DecodeKeyColumns(prefix[len(rc.Prefix()):], row); err != nil {
		return nil, err
	}
	if _, err := rc.DecodeValue(value, row, nil, fill); err != nil {
		return nil, err
	}
	return row, nil
}
