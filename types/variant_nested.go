package types

import "strings"

// flattenTopArray is Doris's JSON parser (json_parser.cpp traverseArray)
// on a document that is an array holding objects when the table has
// variant_enable_flatten_nested: each element is flattened to its leaf
// paths, and every path becomes an array of the non-null values found at
// it, in element order, without filling the elements that lack it
// ([{"a": 1, "c": 1.1}, {"b": "1"}] is {"a": [1], "b": ["1"], "c": [1.1]}).
// An array inside an element, or a path that is a prefix of another
// element's path, is an error in Doris's words. The result is an object
// whose keys are the dotted paths (renderVariant splits them).
func flattenTopArray(root *jtree) (*jtree, error) {
	type column struct {
		path []string
		vals []*jtree
	}
	var cols []*column
	byKey := map[string]*column{}
	for _, e := range root.kids {
		var paths [][]string
		var vals []*jtree
		if err := nestedElemLeaves(e, nil, &paths, &vals); err != nil {
			return nil, err
		}
		// checkAmbiguousStructure: against the paths collected so far.
		for _, p := range paths {
			for _, c := range cols {
				if isPathPrefix(c.path, p) || isPathPrefix(p, c.path) {
					return nil, invalidValue("Ambiguous structure of top_array nested subcolumns: %s, %s", jsonPath(c.path), jsonPath(p))
				}
			}
		}
		for i, p := range paths {
			if vals[i].kind == jNull {
				continue
			}
			key := strings.Join(p, "\x00")
			c := byKey[key]
			if c == nil {
				c = &column{path: p}
				byKey[key] = c
				cols = append(cols, c)
			}
			c.vals = append(c.vals, vals[i])
		}
	}
	if len(cols) == 1 && len(cols[0].path) == 0 {
		return &jtree{kind: jArr, kids: cols[0].vals}, nil
	}
	out := &jtree{kind: jObj}
	for _, c := range cols {
		out.keys = append(out.keys, strings.Join(c.path, "."))
		out.kids = append(out.kids, &jtree{kind: jArr, kids: c.vals})
	}
	return out, nil
}

// nestedElemLeaves collects the leaf paths of one element of a flattened
// nested array; an array below it is not supported, as in Doris.
func nestedElemLeaves(n *jtree, prefix []string, paths *[][]string, vals *[]*jtree) error {
	switch n.kind {
	case jObj:
		for i, k := range n.keys {
			if len(k) >= variantMaxKeyLen {
				return newError(ErrInvalidValue, "Key length exceeds maximum allowed size of 255 bytes.")
			}
			p := append(append([]string(nil), prefix...), k)
			if err := nestedElemLeaves(n.kids[i], p, paths, vals); err != nil {
				return err
			}
		}
		return nil
	case jArr:
		return invalidValue("Nesting of array in Nested array within variant subcolumns is currently not supported.")
	}
	*paths = append(*paths, prefix)
	*vals = append(*vals, n)
	return nil
}

// isPathPrefix is json_parser.cpp's is_prefix: prefix is a strict prefix
// of parts.
func isPathPrefix(prefix, parts []string) bool {
	if len(prefix) >= len(parts) {
		return false
	}
	for i, k := range prefix {
		if parts[i] != k {
			return false
		}
	}
	return true
}

// jsonPath is PathInData::to_jsonpath: "$." and the keys joined by '.'.
func jsonPath(parts []string) string {
	return "$." + strings.Join(parts, ".")
}

// renderNestedArray prints an array of objects below the root of a
// document of a flatten-nested table as Doris prints its Nested
// subcolumns: each element flattened (null leaves dropped, paths sorted),
// elements separated by ", " ([{"a":1,"c":1.1}, {"b":"1"}]). An array
// inside an element is not supported, as in Doris.
func renderNestedArray(n *jtree) (string, error) {
	var b strings.Builder
	b.WriteByte('[')
	for i, e := range n.kids {
		if i > 0 {
			b.WriteString(", ")
		}
		switch e.kind {
		case jObj:
			if hasArray(e) {
				return "", invalidValue("Nesting of array in Nested array within variant subcolumns is currently not supported.")
			}
			text, err := renderVariant(e, nil, nil)
			if err != nil {
				return "", err
			}
			b.WriteString(text)
		case jArr:
			return "", invalidValue("Nesting of array in Nested array within variant subcolumns is currently not supported.")
		default:
			text, ok := leafText(e)
			if !ok {
				text = "null"
			}
			b.WriteString(text)
		}
	}
	b.WriteByte(']')
	return b.String(), nil
}

func hasArray(n *jtree) bool {
	for _, k := range n.kids {
		if k.kind == jArr || hasArray(k) {
			return true
		}
	}
	return false
}

// nestedElementAt is element access through a Nested array
// ([{"a":1}, {"b":"1"}]['a'] is [1, null]): the path is looked up in each
// element, a missing one giving null. ok is false when s is not an array
// of objects.
func nestedElementAt(s string, parts []string) (string, bool) {
	if len(s) < 2 || s[0] != '[' || s[1] != '{' {
		return "", false
	}
	var b strings.Builder
	b.WriteByte('[')
	i := 1
	first := true
	for i < len(s) && s[i] != ']' {
		for i < len(s) && (s[i] == ' ' || s[i] == ',') {
			i++
		}
		end := skipValue(s, i)
		elem := s[i:end]
		i = end
		if !first {
			b.WriteString(", ")
		}
		first = false
		found := elem
		ok := true
		for _, p := range parts {
			if found, ok = objectMember(found, p); !ok {
				break
			}
		}
		if !ok {
			found = "null"
		}
		b.WriteString(found)
	}
	b.WriteByte(']')
	return b.String(), true
}
