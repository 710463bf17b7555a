package ttl

import "testing"

func TestParseDuration(t *testing.T) {
	const s = 1_000_000
	for _, c := range []struct {
		in   string
		want int64 // microseconds; -1: an error
	}{
		{"0", 0}, {"86400", 86400 * s}, {"1 day", 86400 * s}, {"24h", 86400 * s}, {"24H", 86400 * s},
		{"2 Weeks", 14 * 86400 * s}, {"1 week", 7 * 86400 * s}, {"90m", 90 * 60 * s}, {"5 minutes", 300 * s},
		{"7d", 7 * 86400 * s}, {"3 seconds", 3 * s}, {"1s", s}, {"12 hours", 12 * 3600 * s},
		{"1.5 days", -1}, {"-1", -1}, {"1 day 2 hours", -1}, {"1 month", -1}, {"1 year", -1}, {"", -1},
		{"day", -1}, {"9223372036854775807", -1}, {"106751991 days", 106751991 * 86400 * s}, {"106751992 days", -1},
	} {
		got, err := ParseDuration(c.in)
		if c.want < 0 {
			if err == nil {
				t.Errorf("ParseDuration(%q) = %d, want an error", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseDuration(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

func TestParseTimeZone(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int // seconds east of UTC; -1 marks an error (no valid zone is -1 s)
	}{
		{"UTC", 0}, {"Z", 0}, {"+00:00", 0}, {"+08:00", 8 * 3600}, {"-12:00", -12 * 3600}, {"+14:00", 14 * 3600},
		{"+05:30", 5*3600 + 1800}, {"+14:30", -1}, {"-12:30", -1}, {"Asia/Shanghai", -1}, {"8", -1}, {"+8:00", -1}, {"", -1},
	} {
		got, err := ParseTimeZone(c.in)
		if c.want == -1 {
			if err == nil {
				t.Errorf("ParseTimeZone(%q) = %d, want an error", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseTimeZone(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}
