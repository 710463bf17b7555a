package catalog

import (
	"fmt"
	"testing"
	"time"

	"loadgw/types"
)

// TestDeleteSignMatchesDecode checks RowCodec.DeleteSign against the full
// decode of the value (DecodeValue), over rows with the delete sign 0, 1,
// other non-zero values and NULL, NULL and non-NULL nested and string
// columns before it (which it steps over), rows of an older schema version
// that did not store the delete sign, and a table without one.
func TestDeleteSignMatchesDecode(t *testing.T) {
	intT := types.Type{Kind: types.Int}
	arrT := types.ArrayOf(intT, false)
	mapT := types.MapOf(types.Type{Kind: types.String}, arrT)
	stT := types.StructOf([]types.StructField{{Name: "f1", Type: intT}, {Name: "f2", Type: types.Type{Kind: types.String}}})
	nested := func(ty types.Type, s string) types.Value {
		v, err := types.Cast(types.NewString(types.String, s), ty, time.UTC)
		if err != nil {
			t.Fatalf("cannot cast %q to %s: %v", s, ty.SQLString(), err)
		}
		return v
	}
	tbl := &Table{Name: "t", Keys: UniqueKeys, Columns: []*Column{
		{Name: "k", Type: intT, IsKey: true, UID: 1},
		{Name: "s", Type: types.Type{Kind: types.Varchar, Len: 20}, Nullable: true, UID: 2},
		{Name: "a", Type: arrT, Nullable: true, UID: 3},
		{Name: "m", Type: mapT, Nullable: true, UID: 4},
		{Name: "st", Type: stT, Nullable: true, UID: 5},
		{Name: "d", Type: types.Type{Kind: types.Double}, Nullable: true, UID: 6},
	}}
	tbl.BumpSchema()
	old := NewRowCodec(tbl)
	if got, err := old.DeleteSign(old.AppendValue(nil, []types.Value{types.NewInt(types.Int, 1), types.NullValue, types.NullValue, types.NullValue, types.NullValue, types.NullValue})); got || err != nil {
		t.Fatalf("table without a delete sign: DeleteSign = %v, %v; want false, nil", got, err)
	}
	// A row written before the delete sign existed.
	oldVals := [][]byte{
		old.AppendValue(nil, []types.Value{types.NewInt(types.Int, 1), types.NewString(types.Varchar, "x"), nested(arrT, "[1,2]"), types.NullValue, types.NullValue, types.NewFloat(types.Double, 1.5)}),
	}
	tbl.Columns = append(tbl.Columns,
		&Column{Name: DeleteSignCol, Type: types.Type{Kind: types.TinyInt}, Hidden: true, UID: 7},
		&Column{Name: "after", Type: types.Type{Kind: types.String}, Nullable: true, UID: 8},
	)
	tbl.BumpSchema()
	rc := NewRowCodec(tbl)
	ds := len(tbl.Columns) - 2

	type tc struct {
		vals []types.Value // value columns s, a, m, st, d, sign, after
		want bool
	}
	arrs := []types.Value{types.NullValue, nested(arrT, "[]"), nested(arrT, "[1,null,3]")}
	maps := []types.Value{types.NullValue, nested(mapT, `{"a":[1,2],"b":null}`)}
	sts := []types.Value{types.NullValue, nested(stT, `{1, "xy"}`)}
	strs := []types.Value{types.NullValue, types.NewString(types.Varchar, ""), types.NewString(types.Varchar, "héllo")}
	signs := []struct {
		v    types.Value
		want bool
	}{
		{types.NullValue, false},
		{types.NewInt(types.TinyInt, 0), false},
		{types.NewInt(types.TinyInt, 1), true},
		{types.NewInt(types.TinyInt, -1), true},
		{types.NewInt(types.TinyInt, 127), true},
	}
	var cases []tc
	for _, s := range strs {
		for _, a := range arrs {
			for _, m := range maps {
				for _, st := range sts {
					for _, sg := range signs {
						cases = append(cases, tc{[]types.Value{s, a, m, st, types.NewFloat(types.Double, 2.5), sg.v, types.NewString(types.String, "tail")}, sg.want})
						cases = append(cases, tc{[]types.Value{s, a, m, st, types.NullValue, sg.v, types.NullValue}, sg.want})
					}
				}
			}
		}
	}
	check := func(name string, val []byte, want bool) {
		t.Helper()
		got, err := rc.DeleteSign(val)
		if err != nil {
			t.Fatalf("%s: DeleteSign: %v", name, err)
		}
		row := make([]types.Value, len(tbl.Columns))
		if _, err := rc.DecodeValue(val, row, nil, func(int) types.Value { return types.NullValue }); err != nil {
			t.Fatalf("%s: DecodeValue: %v", name, err)
		}
		full := !row[ds].IsNull() && row[ds].I != 0
		if got != full || got != want {
			t.Fatalf("%s: DeleteSign = %v, full decode says %v, want %v", name, got, full, want)
		}
	}
	for i, c := range cases {
		row := append([]types.Value{types.NewInt(types.Int, int64(i))}, c.vals...)
		check(fmt.Sprintf("row %d", i), rc.AppendValue(nil, row), c.want)
	}
	for i, v := range oldVals {
		check(fmt.Sprintf("old-version row %d", i), v, false)
	}

	// A delete sign stored as TINYINT read after its column became
	// SMALLINT is cast, as the full decode does.
	tiny := rc.AppendValue(nil, append([]types.Value{types.NewInt(types.Int, 1)}, cases[4].vals...))
	tbl.Columns[ds].Type = types.Type{Kind: types.SmallInt}
	tbl.BumpSchema()
	rc = NewRowCodec(tbl)
	check("row of the TINYINT version", tiny, true)
	check("row of the SMALLINT version", rc.AppendValue(nil, append([]types.Value{types.NewInt(types.Int, 1)}, types.NullValue, types.NullValue, types.NullValue, types.NullValue, types.NullValue, types.NewInt(types.SmallInt, 300), types.NullValue)), true)

	// Corrupt values fail, as the full decode does.
	good := rc.AppendValue(nil, append([]types.Value{types.NewInt(types.Int, 1)}, cases[len(cases)-3].vals...))
	for _, bad := range [][]byte{nil, good[:2], good[:len(good)-8]} {
		if _, err := rc.DeleteSign(bad); err == nil {
			t.Fatalf("DeleteSign(%x) of a corrupt value: no error", bad)
		}
	}
	if _, err := rc.DeleteSign([]byte{99, 0}); err == nil {
		t.Fatal("DeleteSign of an unknown schema version: no error")
	}
}

// BenchmarkDeleteSign reads the delete sign of the rows of
// BenchmarkLoad1000Rows's table (k BIGINT, v1 INT, v2 VARCHAR(32),
// ts DATETIME, then the hidden columns) with DeleteSign and, for
// comparison, with the one-column projection binlog.Recorder used before.
func BenchmarkDeleteSign(b *testing.B) {
	tbl := &Table{Name: "t", Keys: UniqueKeys, Columns: []*Column{
		{Name: "k", Type: types.Type{Kind: types.BigInt}, IsKey: true, UID: 1},
		{Name: "v1", Type: types.Type{Kind: types.Int}, Nullable: true, UID: 2},
		{Name: "v2", Type: types.Type{Kind: types.Varchar, Len: 32}, Nullable: true, UID: 3},
		{Name: "ts", Type: types.Type{Kind: types.DateTime}, Nullable: true, UID: 4},
		{Name: DeleteSignCol, Type: types.Type{Kind: types.TinyInt}, Hidden: true, UID: 5},
		{Name: "__DORIS_VERSION_COL__", Type: types.Type{Kind: types.BigInt}, Hidden: true, UID: 6},
	}}
	tbl.BumpSchema()
	rc := NewRowCodec(tbl)
	val := rc.AppendValue(nil, []types.Value{types.NewInt(types.BigInt, 7), types.NewInt(types.Int, 12345), types.NewString(types.Varchar, "value-of-some-row-7"), types.NewDateTime(1_700_000_000_000_000, 0), types.NewInt(types.TinyInt, 0), types.NewInt(types.BigInt, 3)})
	b.Run("DeleteSign", func(b *testing.B) {
		for b.Loop() {
			if del, err := rc.DeleteSign(val); del || err != nil {
				b.Fatal(del, err)
			}
		}
	})
	b.Run("projection", func(b *testing.B) {
		need := make([]bool, len(tbl.Columns))
		need[4] = true
		proj := rc.NewProjection(need)
		row := make([]types.Value, len(tbl.Columns))
		var scr []types.Value
		for b.Loop() {
			var err error
			scr, err = rc.DecodeValueMask(val, row, scr, func(int) types.Value { return types.NullValue }, proj)
			if err != nil || row[4].I != 0 {
				b.Fatal(err)
			}
		}
	})
}
