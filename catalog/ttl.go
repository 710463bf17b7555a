package catalog

// Deprecated: this file is the copy of the row TTL policy from before
// issue 10; package ttl is its home now. It stays only while
// load/convert.go, engine/insert.go and httpapi/streamload.go still call
// Table.TTL, TTLPolicy.Sync and ToTTLMicros; switch them to ttl.Of,
// ttl.Policy.Sync, ttl.Policy.ToDirect and ttl.CheckPartialUpdate and
// delete this file. Do not add callers.

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"loadgw/types"
)

// TTLPolicy is a table's row-level TTL: rows expire at an absolute time
// kept per row (direct mode) or computed from a source column plus a
// duration (source mode).
type TTLPolicy struct {
	// Hidden is the position of __DORIS_TTL_COL__: epoch microseconds in
	// direct mode, a copy of the source in source mode.
	Hidden int
	// Source is the position of function_column.ttl_col, -1 in direct mode.
	Source         int
	DurationMicros int64
	OffsetSeconds  int
}

// TTL returns the table's TTL policy, or nil.
func (t *Table) TTL() *TTLPolicy {
	if t.Properties["function_column.enable_row_ttl"] != "true" {
		return nil
	}
	_, hidden := t.Column(TTLCol)
	if hidden < 0 {
		return nil
	}
	p := &TTLPolicy{Hidden: hidden, Source: -1}
	if name := t.Properties["function_column.ttl_col"]; name != "" {
		_, p.Source = t.Column(name)
		p.DurationMicros, _ = ParseTTLDuration(t.Properties["function_column.ttl"])
		p.OffsetSeconds, _ = ParseTTLTimeZone(t.Properties["function_column.ttl_time_zone"])
	}
	return p
}

var ttlDurationRe = regexp.MustCompile(`^\s*(\d+)\s*([A-Za-z]*)\s*$`)

// ParseTTLDuration reads a row TTL duration: seconds without a unit, or one
// "<n> <unit>" with week(s), day(s)/d, hour(s)/h, minute(s)/m, second(s)/s
// (case-insensitive; a day is 24 hours). It returns microseconds.
func ParseTTLDuration(s string) (int64, error) {
	m := ttlDurationRe.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("Invalid row ttl duration: %s. Use a nonnegative integer number of seconds or one <n> <unit> with unit week, day, hour, minute or second", s)
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("Row ttl duration is out of range: %s", s)
	}
	var unit int64
	switch strings.ToLower(m[2]) {
	case "", "s", "second", "seconds":
		unit = 1
	case "m", "minute", "minutes":
		unit = 60
	case "h", "hour", "hours":
		unit = 3600
	case "d", "day", "days":
		unit = 86400
	case "week", "weeks":
		unit = 7 * 86400
	default:
		return 0, fmt.Errorf("Invalid row ttl duration unit: %s. Use week, day, hour, minute or second", m[2])
	}
	if n > math.MaxInt64/unit/1_000_000 {
		return 0, fmt.Errorf("Row ttl duration is out of range: %s", s)
	}
	return n * unit * 1_000_000, nil
}

var ttlOffsetRe = regexp.MustCompile(`^([+-])(\d{2}):(\d{2})$`)

// ParseTTLTimeZone reads a row TTL time zone: UTC, Z or a fixed offset
// +HH:MM / -HH:MM from -12:00 to +14:00. It returns the offset in seconds.
func ParseTTLTimeZone(s string) (int, error) {
	switch strings.TrimSpace(s) {
	case "UTC", "Z", "utc", "z":
		return 0, nil
	}
	m := ttlOffsetRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, fmt.Errorf("Invalid function_column.ttl_time_zone: %s. Only UTC, Z and fixed offsets from -12:00 to +14:00 are supported", s)
	}
	h, _ := strconv.Atoi(m[2])
	mi, _ := strconv.Atoi(m[3])
	off := h*3600 + mi*60
	if m[1] == "-" {
		off = -off
	}
	if mi >= 60 || off > 14*3600 || off < -12*3600 {
		return 0, fmt.Errorf("Invalid function_column.ttl_time_zone: %s. Only UTC, Z and fixed offsets from -12:00 to +14:00 are supported", s)
	}
	return off, nil
}

// Expiration is the epoch microsecond at which row expires; ok is false
// when the row never expires (a NULL expiration or source).
func (p *TTLPolicy) Expiration(row []types.Value) (micros int64, ok bool, err error) {
	v := row[p.Hidden]
	if v.IsNull() {
		return 0, false, nil
	}
	if p.Source < 0 {
		return v.I, true, nil
	}
	var instant int64
	switch v.Kind {
	case types.Date:
		instant = v.I*86_400_000_000 - int64(p.OffsetSeconds)*1_000_000
	case types.DateTime:
		instant = v.I - int64(p.OffsetSeconds)*1_000_000
	case types.TimestampTZ:
		instant = v.I
	default:
		return 0, false, fmt.Errorf("row ttl source of type %s", v.Kind)
	}
	if p.DurationMicros > 0 && instant > math.MaxInt64-p.DurationMicros {
		return 0, false, fmt.Errorf("row ttl expiration overflows: the source timestamp plus function_column.ttl does not fit in 64-bit epoch microseconds")
	}
	return instant + p.DurationMicros, true, nil
}

// ToTTLMicros converts a value written to the direct-mode hidden column to
// epoch microseconds: integers as they are, DATE/DATETIME read in loc (the
// session or load time zone; see types.LocalToUTC for daylight-saving
// changes), TIMESTAMPTZ as its instant.
func ToTTLMicros(v types.Value, loc *time.Location) (types.Value, bool) {
	switch v.Kind {
	case types.Null:
		return v, true
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		return types.NewInt(types.BigInt, v.I), true
	case types.Date:
		return types.NewInt(types.BigInt, types.LocalToUTC(v.I*86_400_000_000, loc)), true
	case types.DateTime:
		return types.NewInt(types.BigInt, types.LocalToUTC(v.I, loc)), true
	case types.TimestampTZ:
		return types.NewInt(types.BigInt, v.I), true
	}
	return v, false
}

// Sync copies the source column of a source-mode policy into the hidden
// column of row and checks that the row's expiration can be computed; an
// error means the source plus the duration overflows. Direct-mode policies
// leave row as it is.
func (p *TTLPolicy) Sync(row []types.Value) error {
	if p == nil || p.Source < 0 {
		return nil
	}
	row[p.Hidden] = row[p.Source]
	_, _, err := p.Expiration(row)
	return err
}
