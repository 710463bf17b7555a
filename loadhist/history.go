// Package loadhist keeps the history of finished stream loads: the last N
// loads with their label, transaction, table, user, client, outcome,
// counters, times and error log link. It is what SHOW STREAM LOAD, SHOW
// LOAD, the JSON endpoint and the console read.
//
// # Storage and bounds
//
// Each load is one key h/ | sequence (storage.PrefixLoadHistory) holding
// the record as JSON. Sequences grow, so the oldest loads are the first
// keys. Add writes the new record and deletes the records past Keep in the
// same batch (point deletions: see Add), so the history never holds more
// than Keep loads, also across restarts. Memory holds the same Keep records
// for queries.
//
// Add does not sync: the history is a report, not a guarantee. The write
// is ordered in the store's log before every later write, so the next
// synced commit (any load's) makes it durable; only the loads of the last
// moments before a crash may miss from the history (their outcome is in
// their label's transaction record, which is synced).
//
// # Writes
//
// Add and Finish change memory, which queries read, at once, and mark the
// records to write. One caller at a time writes every marked record (and
// the deletions of dropped ones) in one batch, outside the lock, and again
// what was marked meanwhile, at most maxWriteRounds batches; the others
// return without waiting, but for the first to mark while the writer
// commits its last batch: it waits for that batch and writes next (see
// write), so once no call is running every record is written (unless a
// write failed). Writing under the lock, each load waited
// for the loads before it to be written one batch each, behind the commit
// groups being applied (8 ms at the 99th percentile with 32 concurrent
// loads). Flush writes what is still marked, at shutdown.
package loadhist

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"unicode/utf8"

	"loadgw/storage"
)

// Status values of a record, as the BE reports a stream load's Status.
const (
	StatusSuccess     = "Success"
	StatusFail        = "Fail"
	StatusLabelExists = "Label Already Exists"
)

// Record is one finished load. Times are Unix milliseconds.
type Record struct {
	Seq            uint64 `json:"seq"`
	Label          string `json:"label"`
	TxnID          int64  `json:"txn_id"`
	DB             string `json:"db"`
	Table          string `json:"table"`
	User           string `json:"user"`
	ClientIP       string `json:"client_ip"`
	Status         string `json:"status"`
	Message        string `json:"message"`
	ErrorURL       string `json:"error_url"`
	TotalRows      int64  `json:"total_rows"`
	LoadedRows     int64  `json:"loaded_rows"`
	FilteredRows   int64  `json:"filtered_rows"`
	UnselectedRows int64  `json:"unselected_rows"`
	LoadBytes      int64  `json:"load_bytes"`
	StartMs        int64  `json:"start_ms"`
	FinishMs       int64  `json:"finish_ms"`
	Comment        string `json:"comment"`
	FirstErrorMsg  string `json:"first_error_msg"`
	TwoPhaseCommit bool   `json:"two_phase_commit"`
	TimeoutSec     int64  `json:"timeout_sec,omitempty"`
	MaxFilterRatio string `json:"max_filter_ratio,omitempty"`
}

// Options configures a History. The zero value is the default.
type Options struct {
	// Keep is how many loads the history holds; older ones are dropped as
	// new ones are added. At most MaxKeep. The default value is 10000.
	Keep int
}

// MaxKeep bounds Options.Keep: the history is held in memory.
const MaxKeep = 1_000_000

// DefaultKeep is the default of Options.Keep.
const DefaultKeep = 10000

func (o *Options) ensureDefaults() {
	if o.Keep <= 0 {
		o.Keep = DefaultKeep
	}
	if o.Keep > MaxKeep {
		o.Keep = MaxKeep
	}
}

// History is the load history. It is safe for concurrent use.
type History struct {
	db   *storage.DB
	opts Options

	mu   sync.Mutex
	recs []Record // oldest first, at most opts.Keep
	next uint64   // sequence of the next record
	// Not yet written: the sequences whose records to write as memory
	// holds them (unless dropped since), and those of dropped records.
	dirty, dropped []uint64
	writing        bool      // a caller is writing
	lastBatch      bool      // the writer commits its last batch
	heir           bool      // a caller waits to write after the writer
	wrote          sync.Cond // on mu: a write ended
}

// Open reads the history kept in db, dropping records beyond Keep (a
// smaller Keep than the last run's).
func Open(db *storage.DB, opts Options) (*History, error) {
	opts.ensureDefaults()
	h := &History{db: db, opts: opts, next: 1}
	h.wrote.L = &h.mu
	err := storage.ScanPrefix(db, []byte(storage.PrefixLoadHistory), func(key, value []byte) error {
		var r Record
		if err := json.Unmarshal(value, &r); err != nil {
			return fmt.Errorf("cannot decode load history record %x: %w", key, err)
		}
		r.Seq = seqOf(key)
		h.recs = append(h.recs, r)
		h.next = r.Seq + 1
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot read load history: %w", err)
	}
	if extra := len(h.recs) - opts.Keep; extra > 0 {
		if err := h.trimStored(h.recs[extra].Seq); err != nil {
			return nil, err
		}
		h.recs = append([]Record(nil), h.recs[extra:]...)
	}
	return h, nil
}

// Keep is the number of loads the history holds at most.
func (h *History) Keep() int { return h.opts.Keep }

// trimStored deletes every stored record below seq.
func (h *History) trimStored(seq uint64) error {
	b := h.db.NewBatch()
	defer b.Close()
	b.DeleteRange([]byte(storage.PrefixLoadHistory), key(seq))
	if err := b.CommitNoSync(); err != nil {
		return fmt.Errorf("cannot trim load history: %w", err)
	}
	return nil
}

// Add appends r (its Seq is assigned) and drops the oldest record when the
// history is full. Queries see r at once; its write may be left to a
// concurrent caller, whose error is then not Add's.
func (h *History) Add(r Record) error {
	r.bound()
	h.mu.Lock()
	defer h.mu.Unlock()
	r.Seq = h.next
	h.next++
	drop := max(0, len(h.recs)+1-h.opts.Keep)
	for _, old := range h.recs[:drop] {
		h.dropped = append(h.dropped, old.Seq)
	}
	h.recs = appendDropping(h.recs, drop, r)
	h.dirty = append(h.dirty, r.Seq)
	if err := h.write(maxWriteRounds); err != nil {
		return fmt.Errorf("cannot record load %s: %w", r.Label, err)
	}
	return nil
}

// maxWriteRounds bounds the batches one Add writes: under steady load
// records are marked while it writes, and the next Add writes them.
const maxWriteRounds = 4

// Flush writes every record not yet written, waiting for a write in
// progress: the last records before a shutdown.
func (h *History) Flush() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for h.writing {
		h.wrote.Wait()
	}
	if err := h.write(-1); err != nil {
		return fmt.Errorf("cannot write the load history: %w", err)
	}
	return nil
}

// write writes the marked records and deletions, in batches of what is
// marked when each starts, with h.mu released meanwhile, until nothing is
// marked or after rounds batches (rounds < 0: no bound). It returns at
// once when another caller is writing and will write the caller's marks:
// the writer in a later batch, or the heir. The heir is the first caller
// to mark while the writer commits its last batch, which lacks the mark:
// it waits for that batch and writes; without it, the marks of the
// callers returning meanwhile would stay unwritten until the next load,
// or the shutdown, however long the server stays idle. A failed batch's
// records stay marked. REQUIRES: h.mu held.
func (h *History) write(rounds int) error {
	if h.writing {
		if !h.lastBatch || h.heir {
			return nil
		}
		h.heir = true
		for h.writing && h.lastBatch {
			h.wrote.Wait()
		}
		h.heir = false
		if h.writing { // a writer that began since, with batches to come
			return nil
		}
	}
	h.writing = true
	defer func() {
		h.writing, h.lastBatch = false, false
		h.wrote.Broadcast()
	}()
	for ; rounds != 0 && len(h.dirty)+len(h.dropped) > 0; rounds-- {
		dirty, dropped := h.dirty, h.dropped
		h.dirty, h.dropped = nil, nil
		recs := make([]Record, 0, len(dirty))
		for _, seq := range dirty {
			if i := h.index(seq); i >= 0 {
				recs = append(recs, h.recs[i]) // as memory holds it now
			}
		}
		h.lastBatch = rounds == 1
		h.mu.Unlock()
		if testHookCommit != nil {
			testHookCommit()
		}
		err := h.commit(recs, dropped)
		h.mu.Lock()
		if err != nil {
			h.dirty, h.dropped = append(dirty, h.dirty...), append(dropped, h.dropped...)
			return err
		}
	}
	return nil
}

// testHookCommit, when set by a test, runs before each batch of write is
// committed, with h.mu released.
var testHookCommit func()

// commit writes recs and deletes the records of the sequences dropped, in
// one unsynced batch. A plain Delete, one per dropped record, never a
// range deletion: every range deletion in Pebble's memtable makes the
// next read of any key refragment all of the memtable's range deletions,
// so one per load made each read cost as many steps as loads since the
// last flush (BENCHMARKS.md, "mow12b"); not SingleDelete: a record lost in
// a crash (writes do not sync) has its sequence number set again after the
// restart.
func (h *History) commit(recs []Record, dropped []uint64) error {
	b := h.db.NewBatch()
	defer b.Close()
	for i := range recs {
		put(b, &recs[i])
	}
	for _, seq := range dropped {
		b.Delete(key(seq))
	}
	return b.CommitNoSync()
}

// index is the position in h.recs of the record of seq, or -1 when it was
// dropped. REQUIRES: h.mu held.
func (h *History) index(seq uint64) int {
	i, ok := slices.BinarySearchFunc(h.recs, seq, func(r Record, seq uint64) int { return cmp.Compare(r.Seq, seq) })
	if !ok {
		return -1
	}
	return i
}

// appendDropping appends r to recs after dropping its first drop records.
// The dropped records are cleared and sliced off, not copied over: a full
// history shifted all Keep records (their strings with write barriers) at
// every load, 160 µs of CPU per load at Keep 10,000. The array's free end
// runs out once per about a quarter of Keep loads, and append then copies
// the kept records to a new one (amortized, a few records per load).
func appendDropping(recs []Record, drop int, r Record) []Record {
	clear(recs[:drop]) // the array's head outlives them until the next copy
	return append(recs[drop:], r)
}

// Bounds of a record's texts: the history holds Keep records in memory
// and in the store, whatever the clients sent (a table name in a URL, a
// comment header).
const (
	maxNameBytes    = 256
	maxMessageBytes = 2048
)

// bound cuts the client-controlled texts of r to their bounds.
func (r *Record) bound() {
	for _, f := range []*string{&r.Label, &r.DB, &r.Table, &r.User, &r.ClientIP} {
		*f = cut(*f, maxNameBytes)
	}
	for _, f := range []*string{&r.Message, &r.ErrorURL, &r.Comment, &r.FirstErrorMsg} {
		*f = cut(*f, maxMessageBytes)
	}
}

// cut shortens s to at most n bytes at a UTF-8 boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n-3]
	for len(s) > 0 && !utf8.RuneStart(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[len(s)-1] >= utf8.RuneSelf {
		s = s[:len(s)-1] // the start of a cut rune
	}
	return s + "..."
}

// put sets r's stored record in b.
func put(b *storage.Batch, r *Record) {
	v, err := json.Marshal(r)
	if err != nil {
		panic("BUG: cannot encode load history record: " + err.Error())
	}
	b.Set(key(r.Seq), v)
}

// Len is the number of loads held.
func (h *History) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.recs)
}

func key(seq uint64) []byte {
	k := make([]byte, 0, len(storage.PrefixLoadHistory)+8)
	k = append(k, storage.PrefixLoadHistory...)
	return binary.BigEndian.AppendUint64(k, seq)
}

func seqOf(k []byte) uint64 {
	if len(k) != len(storage.PrefixLoadHistory)+8 {
		panic(fmt.Sprintf("BUG: load history key %x has the wrong length", k))
	}
	return binary.BigEndian.Uint64(k[len(storage.PrefixLoadHistory):])
}
