package types

import "strings"

// VariantPathTypes calls fn with each leaf path of a stored VARIANT object
// and the type Doris's DESC shows for it with describe_extend_variant_column
// (bigint, largeint, double, text, json, array<...>). Null leaves are
// skipped; a value that is not an object has no paths. Booleans were stored
// as 1/0 and show as bigint.
func VariantPathTypes(v Value, fn func(path, typ string)) {
	VariantPathTypesNested(v, false, fn)
}

// VariantPathTypesNested is VariantPathTypes for a column of a
// flatten-nested table when nested is true: an array of objects is a
// Nested column whose leaf paths each show as array<T>, T the common type
// of the elements' values (nested2.out: v.nested.a array<bigint>).
func VariantPathTypesNested(v Value, nested bool, fn func(path, typ string)) {
	if IsPlainVariantString(v) || len(v.S) == 0 || v.S[0] != '{' {
		return
	}
	root, ok := decodeJSONTree(v.S)
	if !ok {
		return
	}
	walkPathTypes(root, "", nested, fn)
}

func walkPathTypes(n *jtree, prefix string, nested bool, fn func(path, typ string)) {
	for i, k := range n.keys {
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		kid := n.kids[i]
		if kid.kind == jObj {
			walkPathTypes(kid, p, nested, fn)
			continue
		}
		if nested && kid.kind == jArr && hasObject(kid) {
			seen := map[string]string{}
			var order []string
			for _, e := range kid.kids {
				if e.kind != jObj {
					continue
				}
				walkPathTypes(e, p, false, func(sp, st string) {
					if _, ok := seen[sp]; !ok {
						order = append(order, sp)
					}
					seen[sp] = CommonVariantType(seen[sp], st)
				})
			}
			for _, sp := range order {
				fn(sp, "array<"+seen[sp]+">")
			}
			continue
		}
		if t := leafType(kid); t != "" {
			fn(p, t)
		}
	}
}

func leafType(n *jtree) string {
	switch n.kind {
	case jNum:
		return [...]string{"bigint", "largeint", "double"}[numClass(n.s)]
	case jStr:
		return "text"
	case jBool:
		return "boolean"
	case jArr:
		if hasObject(n) {
			return "json"
		}
		k, mixed, ok := arrayScalarKind(n)
		switch {
		case !ok:
			return "json"
		case k == jNull:
			return ""
		}
		elem := "json"
		if !mixed {
			switch k {
			case jNum:
				elem = [...]string{"bigint", "largeint", "double"}[maxNumClass(n, 0)]
			case jStr:
				elem = "text"
			case jBool:
				elem = "boolean"
			}
		}
		for d := arrayDepth(n); d > 0; d-- {
			elem = "array<" + elem + ">"
		}
		return elem
	}
	return ""
}

// arrayDepth is the nesting depth of an array whose elements are all
// arrays or all scalars.
func arrayDepth(n *jtree) int {
	for _, e := range n.kids {
		if e.kind == jArr {
			return 1 + arrayDepth(e)
		}
	}
	return 1
}

// CommonVariantType is the type of a subcolumn whose rows have types a and
// b (a may be "" for none yet): integers widen to LARGEINT and DOUBLE,
// arrays element-wise, anything else to json.
func CommonVariantType(a, b string) string {
	switch {
	case a == "" || a == b:
		return b
	case strings.HasPrefix(a, "array<") && strings.HasPrefix(b, "array<"):
		return "array<" + CommonVariantType(a[6:len(a)-1], b[6:len(b)-1]) + ">"
	}
	rank := map[string]int{"bigint": 1, "largeint": 2, "double": 3}
	if rank[a] > 0 && rank[b] > 0 {
		if rank[a] > rank[b] {
			return a
		}
		return b
	}
	return "json"
}

// VariantTypeJSON is Doris's variant_type(v): a JSON object of each leaf
// path and its type name, paths sorted ({"a":"bigint","d.e":"string"}).
// Strings are "string" here, as the function names them.
func VariantTypeJSON(v Value) string {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	VariantPathTypes(v, func(path, typ string) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(quoteJSONString(path))
		b.WriteByte(':')
		b.WriteString(quoteJSONString(strings.ReplaceAll(typ, "text", "string")))
	})
	b.WriteByte('}')
	return b.String()
}
