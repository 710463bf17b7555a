package ttl

import (
	"errors"
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/types"
)

func TestRefusals(t *testing.T) {
	ttl := directTable(catalog.UniqueKeys)
	plain := newTable(catalog.UniqueKeys, map[string]string{}, &catalog.Column{Name: "k", Type: bigint, IsKey: true})
	for _, c := range []struct {
		name      string
		ttl, none error // with and without row TTL
		want      error
	}{
		{"partial update", CheckPartialUpdate(ttl), CheckPartialUpdate(plain), ErrPartialUpdate},
		{"@incr", CheckRead(ttl, Read{Incr: true, Hint: "PREAGGOPEN"}), CheckRead(plain, Read{Incr: true}), ErrIncrQuery},
		{"AS OF", CheckRead(ttl, Read{AsOf: true}), CheckRead(plain, Read{AsOf: true}), ErrAsOf},
		{"PREAGGOPEN", CheckRead(ttl, Read{Hint: "/*+ preaggopen */"}), CheckRead(plain, Read{Hint: "PREAGGOPEN"}), ErrPreAggOpen},
		{"async MV", CheckMaterializedView(ttl, true), CheckMaterializedView(plain, true), ErrAsyncMV},
		{"sync MV", CheckMaterializedView(ttl, false), CheckMaterializedView(plain, false), ErrSyncMV},
		{"rename hidden", CheckRenameColumn(ttl, "__doris_ttl_col__"), CheckRenameColumn(plain, catalog.TTLCol), ErrRenameColumn},
		{"drop hidden", CheckDropColumn(ttl, catalog.TTLCol), CheckDropColumn(plain, catalog.TTLCol), ErrDropColumn},
		{"SEQUENCE_LOAD", CheckEnableFeature(ttl, "SEQUENCE_LOAD"), CheckEnableFeature(plain, "SEQUENCE_LOAD"), ErrSequence},
	} {
		if !errors.Is(c.ttl, c.want) {
			t.Errorf("%s on a TTL table: %v, want %v", c.name, c.ttl, c.want)
		}
		if c.none != nil {
			t.Errorf("%s on a table without TTL: %v", c.name, c.none)
		}
	}
	if err := CheckRead(ttl, Read{Hint: "SET_VAR(a=1)"}); err != nil {
		t.Errorf("a plain read of a TTL table: %v", err)
	}
	if err := CheckEnableFeature(plain, "ROW_TTL"); !errors.Is(err, ErrEnableFeature) {
		t.Errorf("ENABLE FEATURE ROW_TTL: %v", err)
	}
	src := sourceTable("1 day", "UTC")
	if err := CheckDropColumn(src, "EV"); !errors.Is(err, ErrDropColumn) {
		t.Errorf("dropping the source column: %v", err)
	}
	if err := CheckDropColumn(src, "k"); err != nil {
		t.Errorf("dropping another column: %v", err)
	}
}

func TestFilter(t *testing.T) {
	now := time.Unix(1000, 0)
	f := NewFilter(directTable(catalog.DupKeys), now)
	row := func(exp int64) []types.Value {
		return []types.Value{types.NewInt(types.BigInt, 1), types.NullValue, types.NewInt(types.BigInt, exp)}
	}
	if f.Visible(row(ts(1000))) || !f.Visible(row(ts(1000)+1)) {
		t.Error("the filter does not expire rows at its reference time")
	}
	need := make([]bool, 3)
	f.Need(need)
	if !need[2] || need[0] || need[1] {
		t.Errorf("Need = %v, want only the hidden column", need)
	}
	var zero Filter
	zero.Need(need[:0])
	if !zero.Visible(row(0)) {
		t.Error("the zero filter hides a row")
	}
}
