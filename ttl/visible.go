package ttl

import (
	"time"

	"loadgw/catalog"
	"loadgw/types"
)

// Filter hides the rows of one table that are expired at one statement's
// reference time: every row a statement reads is compared with the same
// instant, whatever the clock does meanwhile. The zero Filter, and the
// Filter of a table without TTL, hides nothing.
type Filter struct {
	p     *Policy
	nowUs int64
}

// NewFilter returns the filter of table t for a statement whose reference
// time is now. Take now before opening the statement's snapshot: then
// reclamation, which keeps rows for ReclaimLag past their expiration, never
// removes a row the statement may still show.
func NewFilter(t *catalog.Table, now time.Time) Filter {
	return Filter{p: Of(t), nowUs: now.UnixMicro()}
}

// Visible reports whether row is not expired. row holds at least the
// column Need marks.
func (f Filter) Visible(row []types.Value) bool {
	exp, ok := f.p.expiration(row) // Expired, negated without an extra inlining level
	return !ok || exp > f.nowUs
}

// Need marks in need the column Visible reads, for a projection that
// decodes only some columns.
func (f Filter) Need(need []bool) {
	if f.p != nil {
		need[f.p.Hidden] = true
	}
}
