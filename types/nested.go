package types

import (
	"encoding/json"
	"strings"
)

// MaxNestingDepth is Doris's Type.MAX_NESTING_DEPTH: ARRAY, MAP and STRUCT
// nest at most this deep.
const MaxNestingDepth = 9

// NestedType describes the elements of an ARRAY, MAP or STRUCT type. It is
// immutable once built; share it freely.
type NestedType struct {
	// Elem is the ARRAY element type or the MAP key type.
	Elem Type `json:",omitempty"`
	// ElemNotNull marks ARRAY<NOT NULL T>: the elements are never NULL.
	ElemNotNull bool `json:",omitempty"`
	// Value is the MAP value type.
	Value Type `json:",omitempty"`
	// Fields are the STRUCT fields, in order.
	Fields []StructField `json:",omitempty"`

	sig string // the signature (nested_codec.go), computed when built
}

// StructField is one field of a STRUCT type.
type StructField struct {
	Name    string
	Type    Type
	NotNull bool   `json:",omitempty"`
	Comment string `json:",omitempty"`
}

// ArrayOf returns ARRAY<elem> (ARRAY<NOT NULL elem> with notNull).
func ArrayOf(elem Type, notNull bool) Type {
	return finish(Type{Kind: Array, Nested: &NestedType{Elem: elem, ElemNotNull: notNull}})
}

// MapOf returns MAP<key, value>.
func MapOf(key, value Type) Type {
	return finish(Type{Kind: Map, Nested: &NestedType{Elem: key, Value: value}})
}

// StructOf returns STRUCT<fields...>. REQUIRES: at least one field, unique
// names (ValidateStruct checks them with Doris's errors).
func StructOf(fields []StructField) Type {
	return finish(Type{Kind: Struct, Nested: &NestedType{Fields: fields}})
}

func finish(t Type) Type {
	t.Nested.sig = string(appendSig(nil, t))
	return t
}

// UnmarshalJSON decodes a NestedType and computes its signature.
func (n *NestedType) UnmarshalJSON(b []byte) error {
	type plain NestedType
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*n = NestedType(p)
	n.sig = ""
	var t Type
	switch {
	case n.Fields != nil:
		t = Type{Kind: Struct, Nested: n}
	case n.Value.Kind != Null:
		t = Type{Kind: Map, Nested: n}
	default:
		t = Type{Kind: Array, Nested: n}
	}
	n.sig = string(appendSig(nil, t))
	return nil
}

// IsNested reports whether k is ARRAY, MAP or STRUCT.
func IsNested(k Kind) bool { return k == Array || k == Map || k == Struct }

// Depth is the nesting depth of t: 0 for a scalar, 1 for ARRAY<INT>.
func (t Type) Depth() int {
	if t.Nested == nil {
		return 0
	}
	d := 0
	switch t.Kind {
	case Array:
		d = t.Nested.Elem.Depth()
	case Map:
		d = max(t.Nested.Elem.Depth(), t.Nested.Value.Depth())
	case Struct:
		for _, f := range t.Nested.Fields {
			d = max(d, f.Type.Depth())
		}
	}
	return d + 1
}

func (n *NestedType) equal(o *NestedType) bool {
	if n == o {
		return true
	}
	if n == nil || o == nil {
		return false
	}
	if !n.Elem.Equal(o.Elem) || n.ElemNotNull != o.ElemNotNull || !n.Value.Equal(o.Value) || len(n.Fields) != len(o.Fields) {
		return false
	}
	for i, f := range n.Fields {
		g := o.Fields[i]
		if f.Name != g.Name || f.NotNull != g.NotNull || f.Comment != g.Comment || !f.Type.Equal(g.Type) {
			return false
		}
	}
	return true
}

// nestedString spells a nested type as Doris: DESC uses the catalog type's
// toString (`array<int>`, `map<text,int>`, `struct<f1:int COMMENT 'c'>`);
// sql is SHOW CREATE TABLE's toSql, which names inner scalar types by
// their storage names (`array<datev2>`, `array<decimalv3(10,2)>`) and
// prints `not null` elements.
func (t Type) nestedString(sql bool) string {
	var b strings.Builder
	t.writeNested(&b, sql)
	return b.String()
}

func (t Type) writeInner(b *strings.Builder, sql bool) {
	if t.Nested != nil {
		t.writeNested(b, sql)
		return
	}
	if sql {
		b.WriteString(innerSQLName(t))
		return
	}
	b.WriteString(t.String())
}

func (t Type) writeNested(b *strings.Builder, sql bool) {
	n := t.Nested
	switch t.Kind {
	case Array:
		b.WriteString("array<")
		n.Elem.writeInner(b, sql)
		if sql && n.ElemNotNull {
			b.WriteString(" not null")
		}
	case Map:
		b.WriteString("map<")
		n.Elem.writeInner(b, sql)
		b.WriteByte(',')
		n.Value.writeInner(b, sql)
	case Struct:
		b.WriteString("struct<")
		for i, f := range n.Fields {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(f.Name)
			b.WriteByte(':')
			f.Type.writeInner(b, sql)
			if sql && f.NotNull {
				b.WriteString(" not null")
			}
			switch {
			case f.Comment == "":
			case sql:
				b.WriteString(" comment '" + f.Comment + "'")
			default:
				b.WriteString(" COMMENT '" + f.Comment + "'")
			}
		}
	}
	b.WriteByte('>')
}

// innerSQLName is ScalarType.toSql: the storage names of DATE, DATETIME
// and DECIMAL.
func innerSQLName(t Type) string {
	switch t.Kind {
	case Date:
		return "datev2"
	case DateTime:
		return "datetimev2(" + itoa(int(t.Scale)) + ")"
	case TimestampTZ:
		return "timestamptz(" + itoa(int(t.Scale)) + ")"
	case Decimal:
		return "decimalv3(" + itoa(int(t.Precision)) + "," + itoa(int(t.Scale)) + ")"
	}
	return t.String()
}

// SQLString spells t as SHOW CREATE TABLE does; it is String for every
// scalar type.
func (t Type) SQLString() string {
	if t.Nested == nil {
		return t.String()
	}
	return t.nestedString(true)
}

// StructFieldIndex returns the position of the field named name
// (case-insensitively, as Doris resolves struct_element), or -1.
func (t Type) StructFieldIndex(name string) int {
	if t.Kind != Struct {
		return -1
	}
	for i, f := range t.Nested.Fields {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

// ElemNullable reports whether the elements of an ARRAY may be NULL.
func (t Type) ElemNullable() bool { return t.Nested == nil || !t.Nested.ElemNotNull }

// ValidateNested checks a nested column type with Doris's rules
// (DataType.validateCatalogDataType): at most MaxNestingDepth levels, only
// the scalar element types Doris's ARRAY/MAP/STRUCT accept, unique STRUCT
// field names.
func ValidateNested(t Type) error {
	if t.Depth() > MaxNestingDepth {
		return invalidType("Type exceeds the maximum nesting depth of %d:\n%s", MaxNestingDepth, t.SQLString())
	}
	return validateNested(t)
}

func validateNested(t Type) error {
	var subs []Type
	switch t.Kind {
	case Array:
		subs = []Type{t.Nested.Elem}
	case Map:
		subs = []Type{t.Nested.Elem, t.Nested.Value}
	case Struct:
		seen := map[string]bool{}
		for _, f := range t.Nested.Fields {
			n := strings.ToLower(f.Name)
			if seen[n] {
				return invalidType("Duplicate field name found: %s", n)
			}
			seen[n] = true
			subs = append(subs, f.Type)
		}
	default:
		return nil
	}
	for _, s := range subs {
		switch s.Kind {
		case Null:
			return invalidType("Unsupported data type: %s", innerSQLName(s))
		case JSON, Variant, Bitmap:
			return invalidType("%s unsupported sub-type: %s", strings.ToUpper(t.Kind.String()), innerSQLName(s))
		}
		if err := validateNested(s); err != nil {
			return err
		}
	}
	return nil
}
