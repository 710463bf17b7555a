package types

import "testing"

func TestParseIPv6(t *testing.T) {
	for _, c := range []struct {
		in, out string // out "" means invalid
	}{
		{"::", "::"},
		{"::1", "::1"},
		{"1::", "1::"},
		{"2001:DB8:0:0:1:0:0:1", "2001:db8::1:0:0:1"},
		{"0:0:0:0:0:ffff:1.2.3.4", "::ffff:1.2.3.4"},
		{"::001.02.000.255", "::1.2.0.255"},
		{"::ffff:0:0", "::ffff:0.0.0.0"},
		{"1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"},
		{"2001:0db8:86a3::08d3:1319:8a2e:0370:7344", ""}, // "::" for no group
		{"1::2::3", ""},
		{":1::", ""},
		{"1:", ""},
		{"1:2:3:4:5:6:7", ""},
		{"12345::", ""},
		{"::1.2.3.256", ""},
		{"1.2.3.4", ""},
		{"", ""},
		{":::", ""},
		{"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffffg", ""},
	} {
		hi, lo, ok := ParseIPv6(c.in)
		got := ""
		if ok {
			got = string(AppendIPv6(nil, hi, lo))
		}
		if got != c.out {
			t.Errorf("ParseIPv6(%q) = %q, want %q", c.in, got, c.out)
		}
	}
}

func TestAppendIPv6Cut(t *testing.T) {
	hi, lo, _ := ParseIPv6("2001:1b70:a1:610::b102:2")
	if got := string(AppendIPv6Cut(nil, hi, lo, 4)); got != "2001:1b70:a1:610::" {
		t.Errorf("cut 4 = %q", got)
	}
	m := IPv4ToIPv6(0xc0a80001)
	if got := string(AppendIPv6Cut(nil, uint64(m.Hi), uint64(m.I), 2)); got != "::ffff:192.168.0.0" {
		t.Errorf("cut mapped 2 = %q", got)
	}
}

// FuzzParseIPv6 checks that whatever parses formats to text that parses
// back to the same address, and that nothing panics.
func FuzzParseIPv6(f *testing.F) {
	for _, s := range []string{"::", "::ffff:1.2.3.4", "2001:db8::1", "1:2:3:4:5:6:7:8", "::1.2.3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		hi, lo, ok := ParseIPv6(s)
		if !ok {
			return
		}
		out := string(AppendIPv6(nil, hi, lo))
		h2, l2, ok := ParseIPv6(out)
		if !ok || h2 != hi || l2 != lo {
			t.Fatalf("%q -> %q does not read back", s, out)
		}
		_, _ = ParseIPv4(s)
	})
}
