package engine

import (
	"bytes"
	"fmt"
	"time"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/ttl"
	"loadgw/types"
	"loadgw/upsert"
)

// scanner reads the visible rows of a table from the store or a snapshot:
// the newest version of each key of a Unique/Aggregate Key table, without
// delete-marked rows; every row of a Duplicate Key table.
type scanner struct {
	rc      *catalog.RowCodec
	t       *catalog.Table
	r       storage.Reader
	now     time.Time
	loc     *time.Location
	delSign int // position of __DORIS_DELETE_SIGN__, or -1
	// withDeleted keeps delete-marked rows (readsDeleted).
	withDeleted bool
	// expiry hides rows expired at the statement's one reference time.
	expiry  ttl.Filter
	proj    *catalog.Projection
	scratch []types.Value
	// rowStore is the buffer __DORIS_ROW_STORE_COL__ is built in;
	// rowStoreRead is set by project when the scan reads that column.
	rowStore     []byte
	rowStoreRead bool
	added        func(col int) types.Value
	// poll, when set, is called per key read and stops the scan with its
	// error (statement timeout or cancellation).
	poll func() error
	// pre and rest, when set, filter a row before the columns of rest
	// are decoded (see filterFirst).
	pre  func(row []types.Value) (bool, error)
	rest *catalog.Projection
	// mid and preMid, when set, are a second stage between pre and rest
	// (see filterKeysFirst).
	mid    *catalog.Projection
	preMid func(row []types.Value) (bool, error)
	// enc, when set, drops rows on their stored bytes before any decoding
	// (see scan_encfilter.go).
	enc *encFilter
	// encLate runs enc after pre, on the rows pre keeps (scanFiltered:
	// the probe key filters go first).
	encLate bool
	// keyN is the number of leading key columns decoded for keyFor, the
	// projection it was computed for (see keyColumns).
	keyN   int
	keyFor *catalog.Projection
	// writer numbers the table's commits for __DORIS_VERSION_COL__;
	// commits holds them, read at the first row that needs them (after
	// the scan's iterator opened, so every commit it sees is in it).
	writer  *upsert.Writer
	commits []uint64
	loaded  bool
	noVer   bool // the scan does not read __DORIS_VERSION_COL__
	// keys, when not nil, are the only rows the scan reads, sorted: the
	// rows an index lookup found (index_lookup.go).
	keys [][]byte
	// groups, when set, groups keys by the value of an index lookup of
	// which the scan yields only a first row each (index_lookup_once.go).
	groups *lookupGroups
	// kept, when set, holds the walk and the row buffer of one scan at a
	// time, kept between scans (the session's point lookups).
	kept *scanKept
}

// scanKept is what a scanner that runs one scan at a time keeps from one
// scan to the next: the version walk (its key buffer) and the row.
type scanKept struct {
	vs  catalog.Versions
	row []types.Value
}

// noVersion reports whether a scan reading the columns of need (nil: all)
// leaves out __DORIS_VERSION_COL__.
func noVersion(rc *catalog.RowCodec, need []bool) bool {
	col := rc.VersionCol()
	return col < 0 || need != nil && !need[col]
}

// newScanner reads t from r: the live store, whose iterator sees the store
// as of the scan's start, or a snapshot.
func (s *Session) newScanner(t *catalog.Table, r storage.Reader, now time.Time) *scanner {
	sc := &scanner{}
	s.initScanner(sc, t, r, now)
	return sc
}

// initScanner makes *sc newScanner's scanner (the point lookup reuses one).
func (s *Session) initScanner(sc *scanner, t *catalog.Table, r storage.Reader, now time.Time) {
	_, ds := t.Column(catalog.DeleteSignCol)
	// Without a projection a scan reads every column: the hidden row
	// store only when the session shows hidden columns.
	*sc = scanner{rc: s.e.Codec(t), t: t, r: r, now: now, loc: s.loc, delSign: ds, expiry: ttl.NewFilter(t, now), writer: s.e.writer,
		rowStoreRead: s.ShowHidden()}
}

// visible reports whether a decoded row shows: not delete-marked and not
// expired by row TTL.
func (sc *scanner) visible(row []types.Value) bool {
	if sc.delSign >= 0 && !sc.withDeleted && !row[sc.delSign].IsNull() && row[sc.delSign].I != 0 {
		return false
	}
	return sc.expiry.Visible(row)
}

// project restricts decoding to the columns with need[col] set; the delete
// sign is always read.
func (sc *scanner) project(need []bool) {
	if sc.delSign >= 0 {
		need[sc.delSign] = true
	}
	sc.expiry.Need(need)
	sc.rowStoreRead = false
	if rs := sc.rc.RowStoreCol(); rs >= 0 && need[rs] {
		sc.rowStoreRead = true
		for i := range need { // the row store serializes the whole row
			need[i] = true
		}
	}
	sc.proj = sc.rc.NewProjection(need)
	sc.noVer = noVersion(sc.rc, need)
}

// scan calls fn for each visible row whose encoded key starts with prefix
// (the table prefix for a full scan). The row slice is reused between calls.
func (sc *scanner) scan(prefix []byte, fn func(row []types.Value) (bool, error)) error {
	return sc.scanIn(prefix, storage.PrefixEnd(prefix), fn)
}

// scanIn is scan over the keys in [lo, hi) (see catalog.RowCodec.VersionsIn);
// an empty range reads nothing.
func (sc *scanner) scanIn(lo, hi []byte, fn func(row []types.Value) (bool, error)) error {
	if hi != nil && bytes.Compare(lo, hi) >= 0 {
		return nil
	}
	if sc.groups != nil {
		return sc.scanFirstKeys(lo, hi, fn)
	}
	if sc.keys != nil {
		return sc.scanKeys(lo, hi, fn)
	}
	vs, row, err := sc.walk(lo, hi)
	if err != nil {
		return err
	}
	defer vs.Close()
	if sc.bySequence() {
		seq, _ := sc.t.Sequence()
		return sc.scanBySequence(vs, seq, row, fn)
	}
	for vs.NextKey() { // the newest version of each key is the row
		if sc.poll != nil {
			if err := sc.poll(); err != nil {
				return err
			}
		}
		more, err := sc.visit(vs.Key(), vs.Value(), row, fn)
		if err != nil || !more {
			return err
		}
	}
	return vs.Close()
}

// walk starts the version walk of scanIn over [lo, hi) and gives the
// row buffer its rows are decoded in: kept ones when the scanner has them.
func (sc *scanner) walk(lo, hi []byte) (*catalog.Versions, []types.Value, error) {
	n := len(sc.t.Columns)
	if k := sc.kept; k != nil {
		if err := sc.rc.VersionsInto(&k.vs, sc.r, lo, hi); err != nil {
			return nil, nil, err
		}
		if cap(k.row) < n {
			k.row = make([]types.Value, n)
		}
		k.row = k.row[:n]
		clear(k.row)
		return &k.vs, k.row, nil
	}
	vs, err := sc.rc.VersionsIn(sc.r, lo, hi)
	if err != nil {
		return nil, nil, err
	}
	return vs, make([]types.Value, n), nil
}

// visit decodes the stored row (key, val) into row and passes it to fn
// when it shows and the scan's stage filters keep it; it reports whether
// the scan goes on.
func (sc *scanner) visit(key, val []byte, row []types.Value, fn func(row []types.Value) (bool, error)) (bool, error) {
	if sc.enc != nil && !sc.encLate {
		ok, err := sc.enc.keep(key, val)
		if err != nil || !ok {
			return err == nil, err
		}
	}
	if err := sc.decode(key, val, row); err != nil {
		return false, err
	}
	if !sc.visible(row) {
		return true, nil
	}
	if sc.pre != nil {
		ok, err := sc.pre(row)
		if err != nil || !ok {
			return err == nil, err
		}
		if sc.encLate {
			if ok, err := sc.enc.keep(key, val); err != nil || !ok {
				return err == nil, err
			}
		}
		if sc.mid != nil {
			if ok, err := sc.midFilter(val, row); err != nil || !ok {
				return err == nil, err
			}
		}
		if err := sc.decodeRest(val, row); err != nil {
			return false, err
		}
	}
	return fn(row)
}

// bySequence reports whether the table is merge-on-read with a sequence
// column: every version of a key is decoded to pick the row.
func (sc *scanner) bySequence() bool {
	seq, _ := sc.t.Sequence()
	return seq >= 0 && !sc.t.MergeOnWrite()
}

// scanBySequence reads a merge-on-read table with a sequence column: of the
// versions of a key the one with the highest sequence value is the row
// (ties go to the newest version, NULL is lowest).
func (sc *scanner) scanBySequence(vs *catalog.Versions, seq int, row []types.Value, fn func(row []types.Value) (bool, error)) error {
	var best []types.Value
	emit := func() (bool, error) {
		if best == nil {
			return true, nil
		}
		b := best
		best = nil
		if !sc.visible(b) {
			return true, nil
		}
		return fn(b)
	}
	saved := sc.proj
	sc.proj = nil // every version's sequence value is needed
	defer func() { sc.proj = saved }()
	for vs.Next() {
		if sc.poll != nil {
			if err := sc.poll(); err != nil {
				return err
			}
		}
		if vs.Newest() {
			if more, err := emit(); err != nil || !more {
				return err
			}
		}
		if err := sc.decode(vs.Key(), vs.Value(), row); err != nil {
			return err
		}
		if best == nil || catalog.CompareSequence(row[seq], best[seq]) > 0 {
			best = append(best[:0:0], row...)
		}
	}
	if _, err := emit(); err != nil {
		return err
	}
	return vs.Close()
}

func (sc *scanner) decode(key, val []byte, row []types.Value) error {
	if err := sc.rc.DecodeKeyN(key, row, sc.keyColumns()); err != nil {
		return fmt.Errorf("cannot decode key of %s: %w", sc.t.Name, err)
	}
	var err error
	sc.scratch, err = sc.rc.DecodeValueMask(val, row, sc.scratch, sc.fill, sc.proj)
	if err != nil {
		return fmt.Errorf("cannot decode row of %s: %w", sc.t.Name, err)
	}
	tso := sc.rc.KeyTSO(key)
	ver, err := sc.version(tso)
	if err != nil {
		return err
	}
	sc.rc.FillVirtual(row, tso, ver)
	if rs := sc.rc.RowStoreCol(); rs >= 0 && sc.rowStoreRead {
		if sc.rowStore, err = sc.rc.AppendRowStore(sc.rowStore[:0], row); err != nil {
			return err
		}
		row[rs] = types.NewString(types.String, string(sc.rowStore))
	}
	return nil
}

// version is the __DORIS_VERSION_COL__ of a row committed at tso, 0 when
// the scan does not read that column.
func (sc *scanner) version(tso uint64) (int64, error) {
	if sc.noVer || sc.rc.VersionCol() < 0 {
		return 0, nil
	}
	if !sc.loaded {
		l, err := sc.writer.Versions(sc.t.ID)
		if err != nil {
			return 0, err
		}
		sc.commits, sc.loaded = l, true
	}
	return upsert.VersionOf(sc.commits, tso), nil
}

// keyColumns is the number of leading key columns decode fills: every one
// without a projection, else up to the last one the projection reads
// (filterFirst sets it for its two projections).
func (sc *scanner) keyColumns() int {
	if sc.proj == nil {
		return len(sc.t.Columns) // more than there are key columns
	}
	if sc.keyFor != sc.proj {
		sc.keyN, sc.keyFor = sc.rc.KeyColumnsRead(sc.proj.Need()), sc.proj
	}
	return sc.keyN
}

// fill is the value of a column added after a row was written: its default.
func (sc *scanner) fill(col int) types.Value {
	if sc.added == nil {
		sc.added = sc.t.AddedValueFunc(sc.now, sc.loc)
	}
	return sc.added(col)
}
