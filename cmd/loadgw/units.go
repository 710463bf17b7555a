package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
)

// byteSize is a flag of a size in bytes that accepts units (96MiB, 100GiB,
// 1GB, 4096) and prints itself in the largest binary unit that divides it
// exactly, so --help shows 100GiB rather than 107374182400. A leading '-'
// is kept for flags where a negative value means "off".
type byteSize struct{ p *int64 }

func (b byteSize) String() string {
	if b.p == nil {
		return "0"
	}
	return formatBytes(*b.p)
}

func (b byteSize) Set(s string) error {
	v, err := parseBytes(s)
	if err != nil {
		return err
	}
	*b.p = v
	return nil
}

func parseBytes(s string) (int64, error) {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	u, err := humanize.ParseBytes(strings.TrimPrefix(s, "-"))
	if err != nil {
		return 0, fmt.Errorf("%q is not a size (e.g. 4096, 96MiB, 100GiB, 1GB)", s)
	}
	if u > 1<<62 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	if neg {
		return -int64(u), nil
	}
	return int64(u), nil
}

func formatBytes(v int64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	for _, u := range []struct {
		name  string
		shift uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}} {
		if v != 0 && v%(1<<u.shift) == 0 {
			return sign + strconv.FormatInt(v>>u.shift, 10) + u.name
		}
	}
	return sign + strconv.FormatInt(v, 10)
}

// intBytes adapts byteSize to an int field.
type intBytes struct{ p *int }

func (b intBytes) String() string {
	if b.p == nil {
		return "0"
	}
	return formatBytes(int64(*b.p))
}

func (b intBytes) Set(s string) error {
	v, err := parseBytes(s)
	if err != nil {
		return err
	}
	if v > 1<<31-1 || v < -(1<<31) {
		return fmt.Errorf("%q is too large (at most 2GiB-1)", s)
	}
	*b.p = int(v)
	return nil
}

// duration is a flag of a duration printed without zero units (12h, not
// 12h0m0s); it accepts Go's forms (90s, 1h30m).
type duration struct{ p *time.Duration }

func (d duration) String() string {
	if d.p == nil {
		return "0s"
	}
	return formatDuration(*d.p)
}

func (d duration) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%q is not a duration (e.g. 90s, 12h, 1h30m)", s)
	}
	*d.p = v
	return nil
}

func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}
