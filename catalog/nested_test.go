package catalog

import (
	"encoding/json"
	"slices"
	"testing"

	"loadgw/types"
)

// TestNestedTypeJSON checks that a nested column type survives the
// catalog's JSON round trip (pointers differ afterwards, the type does not)
// and that BumpSchema sees no change, and that a scalar type's JSON is what
// it was before nested types existed (no Nested field).
func TestNestedTypeJSON(t *testing.T) {
	st := types.StructOf([]types.StructField{{Name: "f1", Type: types.Type{Kind: types.Int}, Comment: "c"}, {Name: "f2", Type: types.MapOf(types.Type{Kind: types.String}, types.ArrayOf(types.DecimalType(10, 2), false))}})
	tbl := &Table{Name: "t", Columns: []*Column{
		{Name: "k", Type: types.Type{Kind: types.Int}, IsKey: true, UID: 1},
		{Name: "s", Type: st, Nullable: true, UID: 2},
	}}
	tbl.BumpSchema()
	b, err := json.Marshal(tbl)
	if err != nil {
		t.Fatal(err)
	}
	var back Table
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	got := back.Columns[1].Type
	if !got.Equal(st) || got.Sig() != st.Sig() || got.SQLString() != st.SQLString() {
		t.Fatalf("round trip: got %s (sig %q), want %s", got.SQLString(), got.Sig(), st.SQLString())
	}
	ver := back.SchemaVersion
	back.BumpSchema()
	if back.SchemaVersion != ver {
		t.Fatalf("BumpSchema after a JSON round trip made version %d from %d", back.SchemaVersion, ver)
	}
	scalar, _ := json.Marshal(types.Type{Kind: types.Int})
	if want := `{"Kind":4,"Len":0,"Precision":0,"Scale":0}`; string(scalar) != want {
		t.Fatalf("scalar type JSON %s, want %s", scalar, want)
	}
	if !slices.EqualFunc(back.StoredColumns(), tbl.StoredColumns(), StoredCol.Equal) {
		t.Fatal("stored columns differ after the round trip")
	}
}
