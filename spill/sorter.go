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
	e.row = slices.Clone(row)
	s.rows = append(s.rows, e)
	s.mem += RowBytes(row)
	if s.budget > 0 && s.mem > s.budget {
		return s.spill()
	}
	return nil
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
