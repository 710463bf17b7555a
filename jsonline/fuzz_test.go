package jsonline

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReader reads arbitrary bodies in several modes: it must not panic,
// must terminate, and string fields must be valid UTF-8. A body that is one
// valid JSON object must give back its top-level values (first occurrence of
// each key) as encoding/json sees them.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":"x","c":{"d":[1,2]}}`,
		`[{"a":1},{"b":"\u00e9\ud83d\ude00"}]`,
		`{"r":{"a":true,"b":[null,false]}}`,
		"{\"a\":1}\n\n{\"b\":2}\r\n[]\n\xef\xbb\xbf{}",
		`{"a":1,,}`, `{"a":"\x"}`, `[{"a":1} {"b":2}]`, `{"a":[}`, `{"a" 1}`,
	} {
		for mode := range uint8(16) {
			f.Add([]byte(s), mode)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, mode uint8) {
		opts := Options{ReadByLine: mode&1 != 0, StripOuterArray: mode&2 != 0}
		if mode&4 != 0 {
			opts.JSONPaths = `["$.a","$.b[1]","$.c.d","$"]`
		}
		if mode&8 != 0 {
			opts.JSONRoot = "$.r"
		}
		cols := []string{"a", "b", "c", "d"}
		if mode&15 == 0 {
			if keys, ok := topLevel(body); ok {
				checkRoundTrip(t, body, keys)
				return
			}
		}
		readChecked(t, body, cols, opts)
	})
}

func readChecked(t *testing.T, body []byte, cols []string, opts Options) {
	rd, err := NewReader(bytes.NewReader(body), cols, opts)
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]Field, len(cols))
	for n := 0; n <= len(body)+1; n++ {
		_, err := rd.Next(dst)
		var rowErr *RowError
		switch {
		case err == io.EOF:
			return
		case errors.As(err, &rowErr):
			continue
		case err != nil:
			return
		}
		for _, f := range dst {
			if f.Present && f.Kind == String && !utf8.Valid(f.Text) {
				t.Fatalf("invalid UTF-8 in %q", f.Text)
			}
		}
	}
	t.Fatalf("more results than bytes")
}

type keyValue struct {
	key string
	val json.RawMessage
}

// topLevel returns the first occurrence of each top-level key of body when
// body is one valid JSON object in valid UTF-8.
func topLevel(body []byte) ([]keyValue, bool) {
	if !json.Valid(body) || !utf8.Valid(body) || bytes.HasPrefix(body, []byte("\xef\xbb\xbf")) {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var kvs []keyValue
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var kv keyValue
		kv.key = tok.(string)
		if err := dec.Decode(&kv.val); err != nil {
			return nil, false
		}
		if !seen[kv.key] {
			seen[kv.key] = true
			kvs = append(kvs, kv)
		}
	}
	return kvs, true
}

func checkRoundTrip(t *testing.T, body []byte, kvs []keyValue) {
	cols := []string{"\x00absent"}
	for _, kv := range kvs {
		cols = append(cols, kv.key)
	}
	rd, err := NewReader(bytes.NewReader(body), cols, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]Field, len(cols))
	_, err = rd.Next(dst)
	var rowErr *RowError
	switch {
	case errors.As(err, &rowErr) && len(kvs) == 0 && strings.HasPrefix(rowErr.Reason, "There is no column"):
		return
	case errors.As(err, &rowErr) && strings.Contains(rowErr.Reason, "code: 5,") && bytes.Contains(body, []byte(`\u`)):
		return // a lone surrogate: encoding/json replaces it, simdjson rejects it
	case err != nil:
		t.Fatalf("valid object %q: %v", body, err)
	}
	if dst[0].Present {
		t.Fatalf("absent column present")
	}
	for i, kv := range kvs {
		if got, want := fieldString(dst[i+1]), expected(kv.val); got != want {
			t.Fatalf("%q: key %q: got %s, want %s", body, kv.key, got, want)
		}
	}
}

// expected renders a value the way fieldString renders the Field for it.
func expected(raw json.RawMessage) string {
	switch raw[0] {
	case '"':
		var s string
		_ = json.Unmarshal(raw, &s)
		return fieldString(Field{Present: true, Kind: String, Text: []byte(s)})
	case 't':
		return "bool:1"
	case 'f':
		return "bool:0"
	case 'n':
		return "null"
	case '{':
		return "object:" + printable(raw)
	case '[':
		return "array:" + printable(raw)
	}
	return "number:" + printable(raw)
}
