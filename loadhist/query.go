package loadhist

import "strings"

// Filter selects records. The zero value selects every record.
type Filter struct {
	// DB, Table and Status select records with exactly that value when
	// not empty (Status compares case-insensitively: Doris's STATE =
	// "success" matches Success).
	DB, Table, Status string
	// Label selects records whose label it accepts, when not nil.
	Label func(label string) bool
}

func (f *Filter) match(r *Record) bool {
	return (f.DB == "" || f.DB == r.DB) &&
		(f.Table == "" || f.Table == r.Table) &&
		(f.Status == "" || strings.EqualFold(f.Status, r.Status)) &&
		(f.Label == nil || f.Label(r.Label))
}

// List returns copies of the records f selects, oldest first.
func (h *History) List(f Filter) []Record {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []Record
	for i := range h.recs {
		if f.match(&h.recs[i]) {
			out = append(out, h.recs[i])
		}
	}
	return out
}

// Page returns how many records f selects and, newest first, those from
// offset on, at most limit.
func (h *History) Page(f Filter, offset, limit int) (total int, page []Record) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := len(h.recs) - 1; i >= 0; i-- {
		r := &h.recs[i]
		if !f.match(r) {
			continue
		}
		if total >= offset && len(page) < limit {
			page = append(page, *r)
		}
		total++
	}
	return total, page
}
