package jsonline

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// FuzzPlainRow checks the one-step read of a plain object line against the
// general one: whenever plainRow reads a document, beginDoc reads it as the
// same row with the same fields and raw text.
func FuzzPlainRow(f *testing.F) {
	for _, s := range []string{
		`{"k":1,"v1":2,"v2":"some text","ts":"2026-11-29 10:00:00"}`,
		` {"k" : 1 , "v2" :	"x" }  `, `{"k":1} x`, `{"k":1}}`, `{"x":1}`, `{}`, `{"k":"\u00e9\n"}`,
		`{"k":[1,{"a":2}],"v1":null,"v1":3}`, `{"k":1,}`, `{"k":"a`, "{\"k\":\"\x01\"}", `[{"k":1}]`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, doc []byte, after bool) {
		cols := []string{"k", "v1", "v2", "ts"}
		a, _ := NewReader(nil, cols, Options{ReadByLine: true})
		b, _ := NewReader(nil, cols, Options{ReadByLine: true})
		if after { // the byte after the document in Doris's padding buffer
			a.after, b.after = '}', '}'
		}
		got := make([]Field, len(cols))
		raw, ok := a.plainRow(doc, got)
		if !ok {
			return
		}
		want := make([]Field, len(cols))
		o := b.beginDoc(doc, want)
		if !o.row || o.reason != "" || o.fatal != nil || !bytes.Equal(o.raw, raw) {
			t.Fatalf("plainRow read %q as a row %q; beginDoc: %+v", doc, raw, o)
		}
		for i := range got {
			if got[i].Present != want[i].Present || got[i].Kind != want[i].Kind || !bytes.Equal(got[i].Text, want[i].Text) {
				t.Fatalf("%q: column %d: plainRow %+v, beginDoc %+v", doc, i, got[i], want[i])
			}
		}
	})
}

// FuzzScanString checks scanString, which skips eight bytes at a time,
// against a byte-at-a-time scan.
func FuzzScanString(f *testing.F) {
	for _, s := range []string{`"abc"`, `"0123456789abcdef\"x"`, "\"a\x01b\"", `"é€😀 long enough to skip"`, "\"\xff\"", `"unclosed`, `"a\\`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, d []byte) {
		if len(d) == 0 || d[0] != '"' {
			return
		}
		end, esc, ok := scanString(d, 0)
		wend, wesc, wok := scanStringBytewise(d)
		if end != wend || esc != wesc || ok != wok {
			t.Fatalf("%q: scanString %d %v %v, bytewise %d %v %v", d, end, esc, ok, wend, wesc, wok)
		}
	})
}

func scanStringBytewise(d []byte) (end int, esc, ok bool) {
	for i := 1; i < len(d); {
		switch c := d[i]; {
		case c == '"':
			return i + 1, esc, true
		case c == '\\':
			if i+1 >= len(d) || d[i+1] < 0x20 {
				return i, esc, false
			}
			esc = true
			i += 2
		case c < 0x20:
			return i, esc, false
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && n <= 1 {
				return i, esc, false
			}
			i += n
		default:
			i++
		}
	}
	return len(d), esc, false
}
