package ttl

import (
	"math"
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/types"
)

func TestOf(t *testing.T) {
	if p := Of(newTable(catalog.DupKeys, map[string]string{}, &catalog.Column{Name: "k", Type: bigint, IsKey: true})); p != nil {
		t.Errorf("Of(table without TTL) = %+v, want nil", p)
	}
	d := Of(directTable(catalog.DupKeys))
	if d == nil || d.Hidden != 2 || d.Source != -1 || !d.Direct() {
		t.Errorf("Of(direct) = %+v", d)
	}
	s := Of(sourceTable("1 day", "+08:00"))
	if s == nil || s.Hidden != 2 || s.Source != 1 || s.Direct() || s.DurationMicros != ts(86400) || s.OffsetSeconds != 8*3600 {
		t.Errorf("Of(source) = %+v", s)
	}
	var none *Policy
	if none.Direct() || none.Expired([]types.Value{{}}, 0) || none.Sync(nil) != nil || none.ToDirect(0, types.NewDate(1), nil) != types.NewDate(1) {
		t.Error("a nil policy has an effect")
	}
}

func TestExpiration(t *testing.T) {
	d := Of(directTable(catalog.DupKeys))
	s := Of(sourceTable("1 hour", "+08:00"))
	now := ts(1_000_000)
	for _, c := range []struct {
		name    string
		p       *Policy
		hidden  types.Value
		expired bool
	}{
		{"direct NULL never expires", d, types.NullValue, false},
		{"direct before now", d, types.NewInt(types.BigInt, now-1), true},
		{"direct at now is expired", d, types.NewInt(types.BigInt, now), true},
		{"direct after now", d, types.NewInt(types.BigInt, now+1), false},
		{"direct 0", d, types.NewInt(types.BigInt, 0), true},
		// A DATETIME in +08:00 is 8 hours earlier in UTC; plus one hour.
		{"source at now", s, types.NewDateTime(now+ts(7*3600), 6), true},
		{"source one microsecond later", s, types.NewDateTime(now+ts(7*3600)+1, 6), false},
		{"source NULL never expires", s, types.NullValue, false},
	} {
		row := []types.Value{types.NewInt(types.BigInt, 1), types.NullValue, c.hidden}
		if got := c.p.Expired(row, now); got != c.expired {
			t.Errorf("%s: Expired = %v, want %v", c.name, got, c.expired)
		}
	}
}

func TestSync(t *testing.T) {
	s := Of(sourceTable("1 day", "+00:00"))
	ev := types.NewDateTime(ts(100), 6)
	row := []types.Value{types.NewInt(types.BigInt, 1), ev, types.NullValue}
	if err := s.Sync(row); err != nil || row[2] != ev {
		t.Fatalf("Sync: %v, hidden %v; want a copy of the source", err, row[2])
	}
	row = []types.Value{types.NewInt(types.BigInt, 1), types.NewDateTime(math.MaxInt64-ts(3600), 6), types.NullValue}
	if err := s.Sync(row); err == nil {
		t.Error("Sync accepted a source whose expiration overflows")
	}
	d := Of(directTable(catalog.DupKeys))
	row = []types.Value{types.NewInt(types.BigInt, 1), types.NewInt(types.Int, 5), types.NewInt(types.BigInt, 7)}
	if err := d.Sync(row); err != nil || row[2].I != 7 {
		t.Errorf("direct Sync changed the row: %v %v", err, row)
	}
}

func TestToDirect(t *testing.T) {
	d := Of(directTable(catalog.DupKeys))
	s := Of(sourceTable("1 day", "+00:00"))
	plus8 := time.FixedZone("+08:00", 8*3600)
	big := func(i int64) types.Value { return types.NewInt(types.BigInt, i) }
	dt := types.NewDateTime(ts(8*3600), 6) // 1970-01-01 08:00:00 civil
	for _, c := range []struct {
		name string
		p    *Policy
		col  int
		in   types.Value
		want types.Value
	}{
		{"NULL", d, 2, types.NullValue, types.NullValue},
		{"INT widens", d, 2, types.NewInt(types.Int, 5), big(5)},
		{"TINYINT widens", d, 2, types.NewInt(types.TinyInt, -1), big(-1)},
		{"DATETIME in the zone", d, 2, dt, big(0)},
		{"DATE in the zone", d, 2, types.NewDate(1), big(ts(86400 - 8*3600))},
		{"TIMESTAMPTZ is an instant", d, 2, types.NewTimestampTZ(ts(8*3600), 6), big(ts(8 * 3600))},
		{"text is left to the cast", d, 2, types.NewString(types.Varchar, "2099-01-01"), types.NewString(types.Varchar, "2099-01-01")},
		{"another column", d, 1, dt, dt},
		{"source mode", s, 2, dt, dt},
		{"no TTL", nil, 2, dt, dt},
	} {
		if got := c.p.ToDirect(c.col, c.in, plus8); got != c.want {
			t.Errorf("%s: ToDirect(%v) = %v, want %v", c.name, c.in, got, c.want)
		}
	}
}
