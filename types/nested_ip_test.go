package types

import "testing"

// Text loaded into ARRAY<IPV4> / ARRAY<IPV6> and MAP values keeps the
// addresses (it read them as NULL).
func TestNestedTextIP(t *testing.T) {
	for _, c := range []struct {
		typ  Type
		text string
		want string
	}{
		{ArrayOf(Type{Kind: IPv4}, false), `["192.168.0.1", "10.0.0.1", null]`, `["192.168.0.1", "10.0.0.1", null]`},
		{ArrayOf(Type{Kind: IPv4}, false), `[192.168.0.1, 10.0.0.1]`, `["192.168.0.1", "10.0.0.1"]`},
		{ArrayOf(Type{Kind: IPv6}, false), `["2001:db8::1", "::ffff:1.2.3.4"]`, `["2001:db8::1", "::ffff:1.2.3.4"]`},
		{MapOf(Type{Kind: IPv4}, Type{Kind: IPv6}), `{"1.2.3.4": "::1"}`, `{"1.2.3.4":"::1"}`},
	} {
		v, err := Cast(NewString(Varchar, c.text), c.typ, nil)
		if err != nil {
			t.Fatalf("%s as %s: %v", c.text, c.typ, err)
		}
		if got := Format(v, nil); got != c.want {
			t.Errorf("%s as %s = %s, want %s", c.text, c.typ, got, c.want)
		}
	}
}
