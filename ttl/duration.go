package ttl

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

var durationRe = regexp.MustCompile(`^\s*(\d+)\s*([A-Za-z]*)\s*$`)

// ParseDuration reads a row TTL duration (function_column.ttl): seconds
// without a unit, or one "<n> <unit>" with week(s), day(s)/d, hour(s)/h,
// minute(s)/m, second(s)/s (case-insensitive; a day is 24 hours). It
// returns microseconds.
func ParseDuration(s string) (int64, error) {
	m := durationRe.FindStringSubmatch(s)
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

var offsetRe = regexp.MustCompile(`^([+-])(\d{2}):(\d{2})$`)

// ParseTimeZone reads a row TTL time zone (function_column.ttl_time_zone):
// UTC, Z or a fixed offset +HH:MM / -HH:MM from -12:00 to +14:00. It
// returns the offset in seconds.
func ParseTimeZone(s string) (int, error) {
	switch strings.TrimSpace(s) {
	case "UTC", "Z", "utc", "z":
		return 0, nil
	}
	m := offsetRe.FindStringSubmatch(strings.TrimSpace(s))
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
