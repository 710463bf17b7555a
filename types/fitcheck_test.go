package types

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestNeedsFitCheckCoversCheckFits: every kind CheckFits's switch checks
// is one NeedsFitCheck names, so that callers skipping CheckFits for the
// other kinds (mapping's stream load conversion) skip nothing it would
// refuse. It reads the switch from check.go: a case added there for a new
// kind fails here until NeedsFitCheck names it too.
func TestNeedsFitCheckCoversCheckFits(t *testing.T) {
	byName := map[string]Kind{}
	for k := Null; k <= AggState; k++ {
		byName[kindIdent(k)] = k
	}
	f, err := parser.ParseFile(token.NewFileSet(), "check.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "CheckFits" {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if cc, ok := n.(*ast.CaseClause); ok {
				for _, e := range cc.List {
					if id, ok := e.(*ast.Ident); ok {
						cases = append(cases, id.Name)
					}
				}
			}
			return true
		})
	}
	if len(cases) == 0 {
		t.Fatal("found no case of CheckFits's switch in check.go")
	}
	for _, name := range cases {
		k, ok := byName[name]
		if !ok {
			t.Fatalf("CheckFits checks %s, which is not a Kind this test knows", name)
		}
		if !NeedsFitCheck(Type{Kind: k}) {
			t.Errorf("CheckFits checks %s, but NeedsFitCheck does not name it", name)
		}
	}
}

// kindIdent is the Go name of k's constant.
func kindIdent(k Kind) string {
	return [...]string{
		Null: "Null", Boolean: "Boolean", TinyInt: "TinyInt", SmallInt: "SmallInt", Int: "Int", BigInt: "BigInt",
		LargeInt: "LargeInt", Float: "Float", Double: "Double", Decimal: "Decimal", Date: "Date", DateTime: "DateTime",
		TimestampTZ: "TimestampTZ", Char: "Char", Varchar: "Varchar", String: "String", JSON: "JSON", Variant: "Variant",
		Bitmap: "Bitmap", Array: "Array", Map: "Map", Struct: "Struct", IPv4: "IPv4", IPv6: "IPv6", HLL: "HLL",
		QuantileState: "QuantileState", AggState: "AggState",
	}[k]
}
