package labels

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// smallFilter sizes the label filter for n labels at least and at most
// max for the test.
func smallFilter(t *testing.T, n, max uint) {
	oldMin, oldMax := filterMinLabels, filterMaxLabels
	filterMinLabels, filterMaxLabels = n, max
	t.Cleanup(func() { filterMinLabels, filterMaxLabels = oldMin, oldMax })
}

// refused checks that Begin of label is refused as a label in use.
func (r *retention) refused(label string) {
	r.t.Helper()
	_, err := r.s.Begin("d", label, "t")
	var le *LabelExistsError
	if !errors.As(err, &le) || le.State != StateVisible {
		r.t.Fatalf("Begin of used label %s: %v, want the label VISIBLE", label, err)
	}
}

func (r *retention) filterState() string {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	if r.s.filter == nil {
		return "none"
	}
	return fmt.Sprintf("%d of %d", r.s.filter.added, r.s.filter.capacity)
}

// TestLabelFilter: the filter knows every label of the store (from Open's
// scan and from Begin), so a new label needs no store read and a used one
// is still refused; once full it is dropped (lookups read the store) and
// DropExpired builds a new one from the store.
func TestLabelFilter(t *testing.T) {
	smallFilter(t, 8, 1<<20)
	r := newRetention(t)
	for i := 0; i < 5; i++ {
		r.load(fmt.Sprintf("a%d", i))
	}
	if got := r.filterState(); got != "5 of 8" {
		t.Fatalf("filter after 5 loads: %s", got)
	}
	r.restart()
	if got := r.filterState(); got != "5 of 10" { // sized for twice the 5 labels found
		t.Fatalf("filter after restart: %s", got)
	}
	r.s.mu.Lock()
	for i := 0; i < 5; i++ {
		if !r.s.mayHold("d", fmt.Sprintf("a%d", i)) {
			t.Errorf("the filter lost label a%d", i)
		}
	}
	misses := 0
	for i := 0; i < 1000; i++ {
		if r.s.mayHold("d", fmt.Sprintf("new%d", i)) {
			misses++
		}
	}
	r.s.mu.Unlock()
	if misses > 100 {
		t.Errorf("%d of 1,000 new labels pass the filter", misses)
	}
	for i := 0; i < 5; i++ {
		r.refused(fmt.Sprintf("a%d", i))
	}
	// Fill it: its 11th label drops it, and labels are checked in the store.
	for i := 0; i < 12; i++ {
		r.load(fmt.Sprintf("b%d", i))
	}
	if got := r.filterState(); got != "none" {
		t.Fatalf("filter after 11 labels: %s, want none", got)
	}
	r.refused("a0")
	r.refused("b11")
	if err := r.s.DropExpired(r.clk.Now()); err != nil {
		t.Fatal(err)
	}
	if got := r.filterState(); got != "17 of 34" {
		t.Fatalf("filter after DropExpired: %s", got)
	}
	r.refused("a0")
	r.refused("b11")
	r.load("c0")
	r.refused("c0")
}

// TestLabelFilterTooManyLabels: a store with more labels than the filter
// may hold has none, and DropExpired tries again only after filterRetry.
func TestLabelFilterTooManyLabels(t *testing.T) {
	smallFilter(t, 2, 4)
	r := newRetention(t)
	for i := 0; i < 5; i++ {
		r.load(fmt.Sprintf("a%d", i))
	}
	r.restart()
	if got := r.filterState(); got != "none" {
		t.Fatalf("filter of 5 labels (at most 4): %s", got)
	}
	r.refused("a4")
	r.load("b0")
	r.clk.Advance(time.Minute)
	r.s.DropExpired(r.clk.Now())
	if got := r.filterState(); got != "none" {
		t.Fatalf("filter before the retry time: %s", got)
	}
	// The labels expire: the next rebuild after the retry time finds none.
	r.clk.Advance(filterRetry + 12*time.Hour)
	if err := r.s.DropExpired(r.clk.Now()); err != nil {
		t.Fatal(err)
	}
	if got := r.filterState(); got != "0 of 2" {
		t.Fatalf("filter after the labels expired: %s", got)
	}
	r.load("a4") // free again
	r.refused("a4")
}

// TestLabelFilterRebuildRace: labels that begin or finish while a rebuild
// scans the store are in the new filter.
func TestLabelFilterRebuildRace(t *testing.T) {
	smallFilter(t, 4, 1<<20)
	r := newRetention(t)
	// running: begun before the rebuild, committed during it
	running, err := r.s.Begin("d", "running", "t")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ { // fills the filter of 4
		r.load(fmt.Sprintf("a%d", i))
	}
	if got := r.filterState(); got != "none" {
		t.Fatalf("filter: %s, want none", got)
	}
	filterRebuildHook = func() {
		b := r.db.NewBatch()
		defer b.Close()
		if err := r.s.Commit(b, running, 1); err != nil {
			t.Error(err)
		}
		r.load("during")
	}
	t.Cleanup(func() { filterRebuildHook = nil })
	if err := r.s.DropExpired(r.clk.Now()); err != nil {
		t.Fatal(err)
	}
	filterRebuildHook = nil
	if got := r.filterState(); got == "none" {
		t.Fatal("no filter after the rebuild")
	}
	for _, l := range []string{"running", "during", "a0", "a4"} {
		r.refused(l)
	}
}

// TestLabelFilterLargeStoreAtOpen: Open of a store with more than
// filterOpenLabels labels leaves the filter to the first DropExpired.
func TestLabelFilterLargeStoreAtOpen(t *testing.T) {
	smallFilter(t, 2, 1<<20)
	old := filterOpenLabels
	filterOpenLabels = 3
	t.Cleanup(func() { filterOpenLabels = old })
	r := newRetention(t)
	for i := 0; i < 4; i++ {
		r.load(fmt.Sprintf("a%d", i))
	}
	r.restart()
	if got := r.filterState(); got != "none" {
		t.Fatalf("filter at Open of 4 labels: %s, want none", got)
	}
	r.refused("a3")
	if err := r.s.DropExpired(r.clk.Now()); err != nil {
		t.Fatal(err)
	}
	if got := r.filterState(); got != "4 of 8" {
		t.Fatalf("filter after the first DropExpired: %s", got)
	}
	r.refused("a3")
}
