package types

import (
	"encoding/json"
	"time"
)

// nestedToJSON is CAST(ARRAY|MAP|STRUCT AS JSON): an ARRAY becomes a JSON
// array, a MAP and a STRUCT a JSON object (MAP keys as their text), each
// element its own JSON cast (strings and dates quoted, NULL null), compact.
func nestedToJSON(v Value, loc *time.Location) (Value, error) {
	b, err := appendNestedJSON(nil, v, loc)
	if err != nil {
		return NullValue, err
	}
	return Value{Kind: JSON, S: string(b)}, nil
}

func appendNestedJSON(b []byte, v Value, loc *time.Location) ([]byte, error) {
	n, err := Decode(v)
	if err != nil {
		return nil, err
	}
	open, close := byte('{'), byte('}')
	if n.Type.Kind == Array {
		open, close = '[', ']'
	}
	b = append(b, open)
	step := 1
	if n.Type.Kind == Map {
		step = 2
	}
	for i := 0; i < len(n.Elems); i += step {
		if i > 0 {
			b = append(b, ',')
		}
		switch n.Type.Kind {
		case Map:
			b = appendJSONQuoted(b, Format(n.Elems[i], loc))
			b = append(b, ':')
			if b, err = appendElemJSON(b, n.Elems[i+1], loc); err != nil {
				return nil, err
			}
			continue
		case Struct:
			b = appendJSONQuoted(b, n.Type.Nested.Fields[i].Name)
			b = append(b, ':')
		}
		if b, err = appendElemJSON(b, n.Elems[i], loc); err != nil {
			return nil, err
		}
	}
	return append(b, close), nil
}

func appendElemJSON(b []byte, e Value, loc *time.Location) ([]byte, error) {
	switch {
	case e.IsNull():
		return append(b, "null"...), nil
	case IsNested(e.Kind):
		return appendNestedJSON(b, e, loc)
	case IsString(e.Kind):
		return appendJSONQuoted(b, e.S), nil
	}
	j, err := castToJSON(e, loc)
	if err != nil {
		return nil, err
	}
	return append(b, j.S...), nil
}

// appendJSONQuoted appends s as a JSON string, as expr's JSON builders do.
func appendJSONQuoted(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}
