// Package ttl owns row-level TTL: a table's policy (a per-row deadline in
// direct mode, or a source column plus a duration and a time zone), the
// visibility check that scans run with one reference time per statement,
// the operations a TTL table refuses, the TTL property rules, and the
// reclamation of expired rows.
package ttl

import (
	"fmt"
	"math"
	"time"

	"loadgw/catalog"
	"loadgw/types"
)

// The table properties of row TTL, as Doris spells them.
const (
	PropEnable   = "function_column.enable_row_ttl"
	PropColumn   = "function_column.ttl_col"
	PropDuration = "function_column.ttl"
	PropTimeZone = "function_column.ttl_time_zone"
)

// Policy is a table's row-level TTL: rows expire at an absolute time kept
// per row (direct mode) or computed from a source column plus a duration
// (source mode). A nil *Policy is a table without TTL; its methods accept
// that.
type Policy struct {
	// Hidden is the position of __DORIS_TTL_COL__: epoch microseconds in
	// direct mode, a copy of the source in source mode.
	Hidden int
	// Source is the position of function_column.ttl_col, -1 in direct mode.
	Source         int
	DurationMicros int64
	OffsetSeconds  int
}

// Of returns t's TTL policy, or nil when t has no row TTL. The properties
// were validated when the table was created (see Validate).
func Of(t *catalog.Table) *Policy {
	if t.Properties[PropEnable] != "true" {
		return nil
	}
	_, hidden := t.Column(catalog.TTLCol)
	if hidden < 0 {
		return nil
	}
	p := &Policy{Hidden: hidden, Source: -1}
	if name := t.Properties[PropColumn]; name != "" {
		_, p.Source = t.Column(name)
		p.DurationMicros, _ = ParseDuration(t.Properties[PropDuration])
		p.OffsetSeconds, _ = ParseTimeZone(t.Properties[PropTimeZone])
	}
	return p
}

// Enabled reports whether t has row TTL.
func Enabled(t *catalog.Table) bool { return Of(t) != nil }

// Direct reports whether p is in direct mode: each row carries its own
// expiration in epoch microseconds.
func (p *Policy) Direct() bool { return p != nil && p.Source < 0 }

// Expiration is the epoch microsecond at which row expires; ok is false
// when the row never expires (a NULL expiration or source, or a nil
// policy). An error means the source plus the duration overflows.
func (p *Policy) Expiration(row []types.Value) (micros int64, ok bool, err error) {
	if p == nil {
		return 0, false, nil
	}
	v := row[p.Hidden]
	switch {
	case v.IsNull():
		return 0, false, nil
	case p.Source < 0:
		return v.I, true, nil
	}
	micros, err = p.fromSource(v)
	return micros, err == nil, err
}

// Expired reports whether row is expired at nowMicros: its expiration is
// at or before now. A row whose expiration cannot be computed never
// expires; nor does any row of a nil policy.
func (p *Policy) Expired(row []types.Value, nowMicros int64) bool {
	exp, ok := p.expiration(row)
	return ok && exp <= nowMicros
}

// expiration is Expiration without the error, small enough that Expired
// and Filter.Visible inline into a scan's loop and cost one call per row.
func (p *Policy) expiration(row []types.Value) (int64, bool) {
	if p == nil {
		return 0, false
	}
	v := row[p.Hidden]
	switch {
	case v.IsNull():
		return 0, false
	case p.Source < 0:
		return v.I, true
	}
	exp, err := p.fromSource(v)
	return exp, err == nil
}

// fromSource is the expiration of a row whose source (copied to the hidden
// column) is v: v read in the policy's zone plus the duration.
func (p *Policy) fromSource(v types.Value) (int64, error) {
	var instant int64
	switch v.Kind {
	case types.Date:
		instant = v.I*86_400_000_000 - int64(p.OffsetSeconds)*1_000_000
	case types.DateTime:
		instant = v.I - int64(p.OffsetSeconds)*1_000_000
	case types.TimestampTZ:
		instant = v.I
	default:
		return 0, fmt.Errorf("row ttl source of type %s", v.Kind)
	}
	if p.DurationMicros > 0 && instant > math.MaxInt64-p.DurationMicros {
		return 0, fmt.Errorf("row ttl expiration overflows: the source timestamp plus function_column.ttl does not fit in 64-bit epoch microseconds")
	}
	return instant + p.DurationMicros, nil
}

// Sync copies the source column of a source-mode policy into the hidden
// column of row and checks that the row's expiration can be computed; an
// error means the source plus the duration overflows. Direct-mode and nil
// policies leave row as it is.
func (p *Policy) Sync(row []types.Value) error {
	if p == nil || p.Source < 0 {
		return nil
	}
	row[p.Hidden] = row[p.Source]
	_, _, err := p.Expiration(row)
	return err
}

// ToDirect converts a value written to column col for a direct-mode
// expiration: when col is the hidden column of a direct-mode policy,
// integers are epoch microseconds as they are, DATE and DATETIME are read
// in loc (the session's or the load's time zone; see types.LocalToUTC for
// daylight-saving changes) and TIMESTAMPTZ is its instant, each as a
// BIGINT. Every other value, column and policy (nil, source mode) leaves v
// as it is; text is not converted, so it still has to cast to BIGINT.
// Both stream load and INSERT/UPDATE call it before the cast to the
// column type.
func (p *Policy) ToDirect(col int, v types.Value, loc *time.Location) types.Value {
	if !p.Direct() || col != p.Hidden {
		return v
	}
	switch v.Kind {
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		return types.NewInt(types.BigInt, v.I)
	case types.Date:
		return types.NewInt(types.BigInt, types.LocalToUTC(v.I*86_400_000_000, loc))
	case types.DateTime:
		return types.NewInt(types.BigInt, types.LocalToUTC(v.I, loc))
	case types.TimestampTZ:
		return types.NewInt(types.BigInt, v.I)
	}
	return v
}
