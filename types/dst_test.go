package types

import (
	"testing"
	"time"
)

// TestLocalToUTCDaylightSaving checks Doris's (cctz's) mapping of civil
// times a daylight-saving change skips or repeats.
func TestLocalToUTCDaylightSaving(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	civil := func(s string) int64 {
		v, err := time.Parse("2006-01-02 15:04:05", s)
		if err != nil {
			t.Fatal(err)
		}
		return v.UnixMicro()
	}
	for _, c := range []struct{ civil, want string }{
		{"2031-03-09 01:59:59", "2031-03-09 06:59:59"}, // EST
		{"2031-03-09 02:00:00", "2031-03-09 07:00:00"}, // skipped: the change
		{"2031-03-09 02:30:00", "2031-03-09 07:00:00"}, // skipped: the change
		{"2031-03-09 03:00:00", "2031-03-09 07:00:00"}, // EDT
		{"2031-11-02 01:30:00", "2031-11-02 05:30:00"}, // repeated: the earlier, EDT
		{"2031-11-02 02:30:00", "2031-11-02 07:30:00"}, // EST
		{"2031-07-01 12:00:00", "2031-07-01 16:00:00"},
	} {
		if got, want := LocalToUTC(civil(c.civil), ny), civil(c.want); got != want {
			t.Errorf("LocalToUTC(%s) = %s, want %s", c.civil, time.UnixMicro(got).UTC(), c.want)
		}
	}
	if got, want := LocalToUTC(civil("2031-01-01 12:00:00")+250_000, ny), civil("2031-01-01 17:00:00")+250_000; got != want {
		t.Errorf("fractions: got %d, want %d", got, want)
	}
}
