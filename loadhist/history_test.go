package loadhist

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"loadgw/storage"
)

func labelsOf(recs []Record) string {
	var b []string
	for _, r := range recs {
		b = append(b, fmt.Sprintf("%s#%d", r.Label, r.Seq))
	}
	return strings.Join(b, " ")
}

// storedSeqs lists the sequence numbers of the records db holds.
func storedSeqs(t *testing.T, db *storage.DB) string {
	t.Helper()
	var seqs []string
	err := storage.ScanPrefix(db, []byte(storage.PrefixLoadHistory), func(k, _ []byte) error {
		seqs = append(seqs, fmt.Sprint(seqOf(k)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(seqs, " ")
}

// TestBoundedAcrossRestarts adds more loads than Keep, reopens the store
// and checks that exactly the newest Keep loads survive, in order, and that
// a smaller Keep at the next start trims the stored history.
func TestBoundedAcrossRestarts(t *testing.T) {
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	h, err := Open(db, Options{Keep: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		st := StatusSuccess
		if i%2 == 0 {
			st = StatusFail
		}
		if err := h.Add(Record{Label: fmt.Sprintf("l%d", i), DB: "d", Table: "t", Status: st}); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := labelsOf(h.List(Filter{})), "l3#3 l4#4 l5#5"; got != want {
		t.Fatalf("history = %q, want %q", got, want)
	}
	if got, want := labelsOf(h.List(Filter{Status: "fail"})), "l4#4"; got != want {
		t.Fatalf("failed loads = %q, want %q", got, want)
	}
	total, page := h.Page(Filter{}, 1, 1)
	if total != 3 || labelsOf(page) != "l4#4" {
		t.Fatalf("page = %d %q", total, labelsOf(page))
	}
	if got := storedSeqs(t, db); got != "3 4 5" {
		t.Fatalf("stored records %q, want the newest Keep: 3 4 5", got)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, err = storage.Open(dir, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h, err = Open(db, Options{Keep: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := labelsOf(h.List(Filter{})), "l4#4 l5#5"; got != want {
		t.Fatalf("after restart = %q, want %q", got, want)
	}
	if err := h.Add(Record{Label: "l6"}); err != nil {
		t.Fatal(err)
	}
	n := 0
	_ = storage.ScanPrefix(db, []byte(storage.PrefixLoadHistory), func(k, v []byte) error { n++; return nil })
	if n != 2 {
		t.Fatalf("%d records stored, want 2", n)
	}
	if got, want := labelsOf(h.List(Filter{Label: func(l string) bool { return l != "l5" }})), "l6#6"; got != want {
		t.Fatalf("label filter = %q, want %q", got, want)
	}
}

// TestRecordBounds checks that client-controlled texts are cut, so Keep
// bounds the history's size.
func TestRecordBounds(t *testing.T) {
	db, err := storage.Open(t.TempDir(), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h, err := Open(db, Options{Keep: 2})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("é", 5000)
	if err := h.Add(Record{Label: "l", Table: long, Comment: long, Message: "ok"}); err != nil {
		t.Fatal(err)
	}
	r := h.List(Filter{})[0]
	if len(r.Table) > maxNameBytes || len(r.Comment) > maxMessageBytes || !strings.HasSuffix(r.Table, "é...") || r.Message != "ok" {
		t.Fatalf("table %d bytes %q..., comment %d bytes", len(r.Table), r.Table[:10], len(r.Comment))
	}
}

// BenchmarkPage10000 pages through a full history of 10,000 loads, as the
// console does.
func BenchmarkPage10000(b *testing.B) {
	db, err := storage.Open(b.TempDir(), storage.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	h, _ := Open(db, Options{Keep: 10000})
	for i := 0; i < 10000; i++ {
		st := StatusSuccess
		if i%100 == 0 {
			st = StatusFail
		}
		_ = h.Add(Record{Label: fmt.Sprint("l", i), DB: "d", Table: "t", Status: st})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if total, page := h.Page(Filter{Status: StatusFail}, 50, 50); total != 100 || len(page) != 50 {
			b.Fatal(total, len(page))
		}
	}
}

// BenchmarkAdd is what recording adds to each stream load of a running
// server: one unsynced write and the removal of the oldest record (the
// history is full before the timer starts), at the default Keep and a
// smaller one.
func BenchmarkAdd(b *testing.B) {
	for _, keep := range []int{1000, DefaultKeep} {
		b.Run(fmt.Sprintf("keep=%d", keep), func(b *testing.B) { benchAdd(b, keep) })
	}
}

func benchAdd(b *testing.B, keep int) {
	db, err := storage.Open(b.TempDir(), storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	h, _ := Open(db, Options{Keep: keep})
	r := Record{Label: "a_label_of_some_length_0001", DB: "d", Table: "t", User: "root", ClientIP: "127.0.0.1",
		Status: StatusSuccess, Message: "OK", TotalRows: 1000, LoadedRows: 1000, LoadBytes: 1 << 20}
	for i := 0; i < keep; i++ {
		if err := h.Add(r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := h.Add(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAddThenRead is a full history's share of a stream load as the
// store's readers see it: each op adds a record (dropping the oldest) and
// then reads one key of the store that does not exist, as the next load's
// label check does. The reads run against a memtable holding the history
// writes of every op so far (64 MiB: nothing is flushed within a run), so
// a per-op cost that grows with b.N shows up as ns/op growing with
// -benchtime.
func BenchmarkAddThenRead(b *testing.B) {
	db, err := storage.Open(b.TempDir(), storage.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	h, _ := Open(db, Options{Keep: 100})
	r := Record{Label: "a_label_of_some_length_0001", DB: "d", Table: "t", Status: StatusSuccess, Message: "OK"}
	for i := 0; i < 100; i++ {
		if err := h.Add(r); err != nil {
			b.Fatal(err)
		}
	}
	missing := []byte("l/n/no such label")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := h.Add(r); err != nil {
			b.Fatal(err)
		}
		if _, err := db.Get(missing); err != storage.ErrNotFound {
			b.Fatal(err)
		}
	}
}

// TestConcurrentAdds: loads added from many goroutines at once, and the
// end of some 2PC loads among them, are all in memory when their calls
// return and, after Flush, in the store as memory holds them: a reopened
// history lists the same records, the newest Keep.
func TestConcurrentAdds(t *testing.T) {
	db, err := storage.Open(t.TempDir(), storage.Options{NoSync: true, MinFreeDiskBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const workers, each, keep = 8, 300, 1000
	h, err := Open(db, Options{Keep: keep})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				txn := int64(w*each + i)
				label := fmt.Sprintf("w%d-%d", w, i)
				if err := h.Add(Record{Label: label, TxnID: txn, Status: "Success", TwoPhaseCommit: i%10 == 0}); err != nil {
					t.Error(err)
					return
				}
				if !slices.ContainsFunc(h.List(Filter{}), func(r Record) bool { return r.Label == label }) {
					t.Errorf("load %s not listed once Add returned", label)
					return
				}
				if i%10 == 0 {
					if _, err := h.Finish(txn, "Aborted", "aborted by the test", 7); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}(w)
	}
	wg.Wait()
	want := h.List(Filter{})
	if len(want) != keep {
		t.Fatalf("%d records held, want %d", len(want), keep)
	}
	// Every call returned: the store holds what memory holds, before a
	// Flush (TestMarkedDuringLastBatch) and after it.
	for _, flush := range []bool{false, true} {
		if flush {
			if err := h.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		again, err := Open(db, Options{Keep: keep})
		if err != nil {
			t.Fatal(err)
		}
		got := again.List(Filter{})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("flush %v: reopened history differs: %d records, first %v\nwant %d, first %v", flush, len(got), got[:min(2, len(got))], len(want), want[:2])
		}
	}
	for _, r := range want {
		if r.TwoPhaseCommit && r.Status != "Aborted" {
			t.Fatalf("load %s: status %s stored, want its Finish's Aborted", r.Label, r.Status)
		}
	}
}

// TestMarkedDuringLastBatch: loads added and a 2PC load finished while
// a writer commits its batches, the last of its rounds included, are in
// the store once every call has returned, without a Flush: a server that
// goes idle after a burst must not keep the last loads (or the end of a
// 2PC load) in memory only until its next load or its shutdown.
func TestMarkedDuringLastBatch(t *testing.T) {
	db, err := storage.Open(t.TempDir(), storage.Options{NoSync: true, MinFreeDiskBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h, err := Open(db, Options{Keep: 100})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Add(Record{Label: "2pc", TxnID: 1, Status: StatusSuccess, TwoPhaseCommit: true}); err != nil {
		t.Fatal(err)
	}
	// While each batch commits, another caller marks a record: a new load
	// during the first ones, the end of the 2PC load during the last ones.
	var wg sync.WaitGroup
	var errs [2 * maxWriteRounds]error
	commits := 0
	testHookCommit = func() {
		if commits == len(errs) {
			return
		}
		i := commits
		commits++
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i < maxWriteRounds-1 {
				errs[i] = h.Add(Record{Label: fmt.Sprintf("during-%d", i), TxnID: int64(10 + i), Status: StatusSuccess})
			} else {
				_, errs[i] = h.Finish(1, StatusFail, fmt.Sprintf("aborted %d", i), int64(i))
			}
		}()
		// The caller has marked its record (it returns, or waits for this
		// batch) before the batch commits.
		for marked := false; !marked; {
			h.mu.Lock()
			marked = len(h.dirty) > 0
			h.mu.Unlock()
		}
	}
	defer func() { testHookCommit = nil }()
	if err := h.Add(Record{Label: "first", TxnID: 2, Status: StatusSuccess}); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	testHookCommit = nil
	want := h.List(Filter{})
	again, err := Open(db, Options{Keep: 100})
	if err != nil {
		t.Fatal(err)
	}
	if got := again.List(Filter{}); !reflect.DeepEqual(got, want) {
		t.Fatalf("stored history differs from memory:\n got %+v\nwant %+v", got, want)
	}
}
