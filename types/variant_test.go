package types

import (
	"testing"

	"github.com/cockroachdb/datadriven"
)

func runVariantElement(t *testing.T, d *datadriven.TestData, line string) string {
	var path string
	d.ScanArgs(t, "path", &path)
	v, err := ParseVariant(unquote(t, line))
	if err != nil {
		return errText(err)
	}
	e, ok := VariantElement(v, path)
	if !ok {
		return "NULL"
	}
	return e.S
}

// FuzzParseVariant checks that any text parses without panicking, that the
// stored form is stable (parsing it again gives the same text) and that
// element access on it never panics.
func FuzzParseVariant(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a" : [1, {"b": null}], "c": {"d": "x,}y"}}`, `[1, [2]]`, `"s"`, ``, `nope`, `{"a.b":1,"a":{"c":2}}`} {
		f.Add(s, "a")
	}
	f.Fuzz(func(t *testing.T, s, path string) {
		v, err := ParseVariant(s)
		if err != nil {
			return
		}
		again, err := ParseVariant(v.S)
		if err != nil {
			t.Fatalf("stored form %q of %q does not parse: %v", v.S, s, err)
		}
		if again.S != v.S && v.S[0] != '"' {
			t.Fatalf("stored form of %q is not stable: %q then %q", s, v.S, again.S)
		}
		if e, ok := VariantElement(v, path); ok && e.S == "" {
			t.Fatalf("element %q of %q is empty", path, v.S)
		}
	})
}

func BenchmarkParseVariant(b *testing.B) {
	doc := `{"id": 28677864, "type": "PushEvent", "actor": {"login": "magik6k", "url": "https://api.github.com/users/magik6k"}, "repo": {"id": 28677864, "name": "magik6k/BitBuffer"}, "payload": {"size": 1, "commits": [{"sha": "f5fd", "distinct": true}]}, "public": true, "score": 1.5, "tags": ["a", "b"]}`
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ParseVariant(doc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVariantElement(b *testing.B) {
	v, _ := ParseVariant(`{"id": 28677864, "actor": {"login": "magik6k", "url": "https://api.github.com/users/magik6k"}, "repo": {"id": 28677864, "name": "magik6k/BitBuffer"}}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, ok := VariantElement(v, "repo.name"); !ok {
			b.Fatal("missing")
		}
	}
}
