package spill

import (
	"container/heap"
	"slices"

	"loadgw/types"
)

// maxFanIn is the most runs merged at once; more are first merged into
// longer runs, so a sort keeps few files open.
const maxFanIn = 64

// Sorter sorts rows within a memory bound: rows gather in memory until
// they take MemoryBytes, then are sorted and written out as a run; the
// result merges the runs. The sort is stable (rows that compare equal keep
// the order they were added in).
type Sorter struct {
	cmp    func(a, b []types.Value) int
	dir    string
	budget int64
	mem    int64
	rows   []entry
	seq    int64
	runs   []*Writer
	// limit, when > 0, keeps only the first limit rows (see SetLimit).
	limit int
	// Spilled counts the runs written (for tests and EXPLAIN).
	Spilled int
}

// NewSorter sorts by cmp, writing runs into dir once the rows held take
// more than budget bytes (budget <= 0: never).
func NewSorter(cmp func(a, b []types.Value) int, dir string, budget int64) *Sorter {
	return &Sorter{cmp: cmp, dir: dir, budget: budget}
}

// entry is a row and its arrival number, which breaks ties so that an
// unstable sort gives the stable order.
type entry struct {
	row []types.Value
	seq int64
}

// MaxTopN is the largest limit SetLimit keeps in a heap; a larger one sorts
// everything (and may spill).
const MaxTopN = 100_000

// SetLimit makes the sorter keep only the first n rows of the order (a
// top-n heap of at most n rows, so ORDER BY ... LIMIT neither holds nor
// spills the other rows). n <= 0 or n > MaxTopN keeps every row.
// REQUIRES: no row was added yet.
func (s *Sorter) SetLimit(n int64) {
	if n > 0 && n <= MaxTopN {
		s.limit = int(n)
	}
}

func (s *Sorter) less(a, b entry) int {
	if c := s.cmp(a.row, b.row); c != 0 {
		return c
	}
	if a.seq < b.seq {
		return -1
	}
	return 1
}

// Add copies row into the sorter.
func (s *Sorter) Add(row []types.Value) error {
	e := entry{seq: s.seq}
	s.seq++
	if s.limit > 0 {
		return s.addTop(row, e)
	}
	e.row = slices.Clone(row)
	s.rows = append(s.rows, e)
	s.mem += RowBytes(row)
	if s.budget > 0 && s.mem > s.budget {
		return s.spill()
	}
	return nil
}

// addTop keeps row if it is among the first limit rows seen so far: rows
// is a max-heap (by less) of at most limit entries.
func (s *Sorter) addTop(row []types.Value, e entry) error {
	h := (*topHeap)(s)
	if len(s.rows) == s.limit {
		e.row = row
		if s.less(e, s.rows[0]) >= 0 {
			return nil
		}
		s.rows[0] = entry{row: slices.Clone(row), seq: e.seq}
		heap.Fix(h, 0)
		return nil
	}
	e.row = slices.Clone(row)
	heap.Push(h, e)
	return nil
}

// topHeap is the sorter's rows as a max-heap.
type topHeap Sorter

func (h *topHeap) Len() int           { return len(h.rows) }
func (h *topHeap) Less(i, j int) bool { return (*Sorter)(h).less(h.rows[i], h.rows[j]) > 0 }
func (h *topHeap) Swap(i, j int)      { h.rows[i], h.rows[j] = h.rows[j], h.rows[i] }
func (h *topHeap) Push(x any)         { h.rows = append(h.rows, x.(entry)) }
func (h *topHeap) Pop() any {
	e := h.rows[len(h.rows)-1]
	h.rows = h.rows[:len(h.rows)-1]
	return e
}

func (s *Sorter) sortRows() {
	slices.SortFunc(s.rows, s.less)
}

func (s *Sorter) spill() error {
	s.sortRows()
	w, err := Create(s.dir)
	if err != nil {
		return err
	}
	s.runs = append(s.runs, w)
	for _, r := range s.rows {
		if err := w.Write(r.row); err != nil {
			return err
		}
	}
	s.rows, s.mem = nil, 0
	s.Spilled++
	return nil
}

// Run calls fn with each row in order until fn returns false. Rows are
// valid only during the call. Run consumes the sorter.
func (s *Sorter) Run(fn func(row []types.Value) (bool, error)) error {
	defer s.Close()
	s.sortRows()
	if len(s.runs) == 0 {
		for _, r := range s.rows {
			if more, err := fn(r.row); err != nil || !more {
				return err
			}
		}
		return nil
	}
	if len(s.rows) > 0 {
		if err := s.spill(); err != nil {
			return err
		}
	}
	for len(s.runs) > maxFanIn {
		if err := s.mergeRuns(); err != nil {
			return err
		}
	}
	return s.merge(s.runs, fn)
}

// mergeRuns merges the first maxFanIn runs into one, kept in their place
// so that stability holds.
func (s *Sorter) mergeRuns() error {
	w, err := Create(s.dir)
	if err != nil {
		return err
	}
	first := s.runs[:maxFanIn]
	rest := append([]*Writer{w}, s.runs[maxFanIn:]...)
	s.runs = rest
	return s.merge(first, func(row []types.Value) (bool, error) { return true, w.Write(row) })
}

// merge streams the rows of runs in order; ties go to the earlier run.
func (s *Sorter) merge(runs []*Writer, fn func(row []types.Value) (bool, error)) error {
	h := &mergeHeap{cmp: s.cmp}
	defer func() {
		for _, it := range h.items {
			it.r.Close()
		}
		for _, w := range runs {
			if w != nil {
				w.Discard()
			}
		}
	}()
	for i, w := range runs {
		r, err := w.Finish() // r owns the file now, also on error
		runs[i] = nil
		if err != nil {
			return err
		}
		it := &mergeItem{r: r, run: i}
		if it.row, err = r.Next(); err != nil {
			r.Close()
			return err
		}
		if it.row == nil {
			r.Close()
			continue
		}
		h.items = append(h.items, it)
	}
	heap.Init(h)
	for h.Len() > 0 {
		it := h.items[0]
		if more, err := fn(it.row); err != nil || !more {
			return err
		}
		var err error
		if it.row, err = it.r.Next(); err != nil {
			return err
		}
		if it.row == nil {
			it.r.Close()
			heap.Pop(h)
			continue
		}
		heap.Fix(h, 0)
	}
	return nil
}

// Close removes the files of a sorter not run to the end.
func (s *Sorter) Close() {
	for _, w := range s.runs {
		if w != nil {
			w.Discard()
		}
	}
	s.runs, s.rows = nil, nil
}

type mergeItem struct {
	r   *Reader
	row []types.Value
	run int
}

type mergeHeap struct {
	items []*mergeItem
	cmp   func(a, b []types.Value) int
}

func (h *mergeHeap) Len() int { return len(h.items) }
func (h *mergeHeap) Less(i, j int) bool {
	if c := h.cmp(h.items[i].row, h.items[j].row); c != 0 {
		return c < 0
	}
	return h.items[i].run < h.items[j].run
}
func (h *mergeHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *mergeHeap) Push(x any)    { h.items = append(h.items, x.(*mergeItem)) }
func (h *mergeHeap) Pop() any {
	it := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return it
}
