package types

import (
	"path"
	"strconv"
	"strings"
	"time"
)

// VARIANT schema templates: VARIANT<'a': INT, MATCH_NAME 'b': STRING,
// PROPERTIES (...)> as Doris 3.1+ defines them (nereids VariantType,
// catalog VariantType / VariantField).

// Default values of the VARIANT properties, as catalog.VariantType.
const (
	DefaultVariantSparseStatsSize = 10000
)

// The VARIANT properties Doris accepts (PropertyAnalyzer).
const (
	PropVariantMaxSubcolumns    = "variant_max_subcolumns_count"
	PropVariantTypedToSparse    = "variant_enable_typed_paths_to_sparse"
	PropVariantSparseStatsSize  = "variant_max_sparse_column_statistics_size"
	PropVariantSparseHashShards = "variant_sparse_hash_shard_count"
)

// VariantDef is the schema template of a VARIANT column: its predefined
// (typed) paths and its properties. A plain VARIANT with every property at
// its default has none (Type.Variant is nil).
type VariantDef struct {
	Fields             []VariantField `json:",omitempty"`
	MaxSubcolumns      int            `json:",omitempty"`
	TypedPathsToSparse bool           `json:",omitempty"`
	SparseStatsSize    int
	SparseHashShards   int `json:",omitempty"`
	// FlattenNested is the table property variant_enable_flatten_nested:
	// a top-level array of objects loads as arrays per path
	// (flattenTopArray). It is not part of the type's SQL form.
	FlattenNested bool `json:",omitempty"`

	// given marks the properties written in the type (given* bits); the
	// others take the session's default_variant_* values (ResolveVariant).
	given uint8
}

// Bits of VariantDef.given.
const (
	givenMaxSubcolumns uint8 = 1 << iota
	givenTypedToSparse
	givenSparseStats
	givenHashShards
)

// VariantField is one predefined path of a VARIANT: a glob pattern
// (MATCH_NAME_GLOB, the default, matched as fnmatch with FNM_PATHNAME) or
// an exact name (MATCH_NAME), and its type.
type VariantField struct {
	Pattern   string
	Type      Type
	Comment   string `json:",omitempty"`
	MatchName bool   `json:",omitempty"`
}

// VariantDefaults are the session's default_variant_* variables.
type VariantDefaults struct {
	MaxSubcolumns      int
	TypedPathsToSparse bool
	SparseStatsSize    int
	SparseHashShards   int
}

// NewVariantDef builds a template from parsed fields and PROPERTIES, as
// LogicalPlanBuilder.visitVariantPredefinedFields: properties not written
// take the session defaults later (ResolveVariant). It checks the property
// values and the field types with Doris's errors.
func NewVariantDef(fields []VariantField, props [][2]string) (*VariantDef, error) {
	d := &VariantDef{Fields: fields, SparseStatsSize: DefaultVariantSparseStatsSize}
	for _, kv := range props {
		k, v := kv[0], kv[1]
		switch k {
		case PropVariantMaxSubcolumns:
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil || n < 0 || n > 100000 {
				// The range error is caught and rethrown as the format error.
				return nil, invalidType("varaint max counts count format error")
			}
			d.MaxSubcolumns, d.given = int(n), d.given|givenMaxSubcolumns
		case PropVariantTypedToSparse:
			d.TypedPathsToSparse, d.given = strings.EqualFold(v, "true"), d.given|givenTypedToSparse
		case PropVariantSparseStatsSize:
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil {
				return nil, invalidType("variant_max_sparse_column_statistics_size format error:For input string: \"%s\"", v)
			}
			if n < 0 || n > 50000 {
				return nil, invalidType("variant_max_sparse_column_statistics_size format error:variant_max_sparse_column_statistics_size must between 0 and 50000 ")
			}
			d.SparseStatsSize, d.given = int(n), d.given|givenSparseStats
		case PropVariantSparseHashShards:
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil {
				return nil, invalidType("variant_sparse_hash_shard_count format error:For input string: \"%s\"", v)
			}
			if n < 1 || n > 1024 {
				return nil, invalidType("variant_sparse_hash_shard_count format error:variant_sparse_hash_shard_count must between 1 and 1024 ")
			}
			d.SparseHashShards, d.given = int(n), d.given|givenHashShards
		default:
			return nil, invalidType("only support for %s and %s and %s and %s", PropVariantTypedToSparse,
				PropVariantMaxSubcolumns, PropVariantSparseStatsSize, PropVariantSparseHashShards)
		}
	}
	seen := map[string]bool{}
	for _, f := range fields {
		if !variantSubTypeOK(f.Type) {
			return nil, invalidType("VARIANT unsupported sub-type: %s", f.Type.SQLString())
		}
		if seen[f.Pattern] {
			return nil, invalidType("Duplicate field name %s in variant %s", f.Pattern, Type{Kind: Variant, Variant: d}.SQLString())
		}
		seen[f.Pattern] = true
	}
	return d, nil
}

// variantSubTypeOK is catalog.VariantType.supportSubType: the scalar types
// of Type.getVariantSubTypes, or an ARRAY of one.
func variantSubTypeOK(t Type) bool {
	if t.Kind == Array && t.Nested.Elem.Kind != Array {
		t = t.Nested.Elem
	}
	switch t.Kind {
	case Boolean, TinyInt, SmallInt, Int, BigInt, LargeInt, Float, Double, Decimal,
		Date, DateTime, TimestampTZ, IPv4, IPv6, String:
		return true
	}
	return false
}

// ResolveVariant gives the properties of a VARIANT type that were not
// written their session defaults, and drops a template that is all
// defaults (a plain VARIANT). Other types are returned unchanged.
func ResolveVariant(t Type, def VariantDefaults) Type {
	if t.Kind != Variant {
		return t
	}
	d := VariantDef{SparseStatsSize: def.SparseStatsSize}
	if t.Variant != nil {
		d = *t.Variant
	}
	if d.given&givenMaxSubcolumns == 0 {
		d.MaxSubcolumns = def.MaxSubcolumns
	}
	if d.given&givenTypedToSparse == 0 {
		d.TypedPathsToSparse = def.TypedPathsToSparse
	}
	if d.given&givenSparseStats == 0 {
		d.SparseStatsSize = def.SparseStatsSize
	}
	if d.given&givenHashShards == 0 {
		d.SparseHashShards = def.SparseHashShards
	}
	d.given = 0
	if len(d.Fields) == 0 && d.MaxSubcolumns == 0 && !d.TypedPathsToSparse &&
		d.SparseStatsSize == DefaultVariantSparseStatsSize && d.SparseHashShards == 0 {
		return Type{Kind: Variant}
	}
	return Type{Kind: Variant, Variant: &d}
}

func (d *VariantDef) equal(o *VariantDef) bool {
	if d == nil || o == nil {
		return d == o
	}
	if d.MaxSubcolumns != o.MaxSubcolumns || len(d.Fields) != len(o.Fields) {
		return false
	}
	for i, f := range d.Fields {
		g := o.Fields[i]
		if f.Pattern != g.Pattern || !f.Type.Equal(g.Type) {
			return false
		}
	}
	return true
}

// variantString is catalog.VariantType.toSql: "variant" without fields
// and subcolumn limit, else variant<'a':int,...,PROPERTIES (...)>.
func (d *VariantDef) variantString() string {
	if d == nil || (len(d.Fields) == 0 && d.MaxSubcolumns == 0) {
		return "variant"
	}
	var b strings.Builder
	b.WriteString("variant<")
	if len(d.Fields) > 0 {
		for i, f := range d.Fields {
			if i > 0 {
				b.WriteByte(',')
			}
			if f.MatchName {
				b.WriteString("MATCH_NAME ")
			}
			b.WriteString("'" + f.Pattern + "':")
			f.Type.writeInner(&b, true)
			if f.Comment != "" {
				b.WriteString(" COMMENT '" + f.Comment + "'")
			}
		}
		if d.MaxSubcolumns == 0 && !d.TypedPathsToSparse && d.SparseStatsSize == DefaultVariantSparseStatsSize {
			b.WriteByte('>')
			return b.String()
		}
		b.WriteByte(',')
	}
	b.WriteString("PROPERTIES (")
	if d.MaxSubcolumns != 0 {
		b.WriteString(`"variant_max_subcolumns_count" = "` + strconv.Itoa(d.MaxSubcolumns) + `"`)
	}
	if d.MaxSubcolumns != 0 && d.TypedPathsToSparse {
		b.WriteByte(',')
	}
	if d.TypedPathsToSparse {
		b.WriteString(`"variant_enable_typed_paths_to_sparse" = "true"`)
	}
	if d.SparseStatsSize != DefaultVariantSparseStatsSize {
		b.WriteString(`,"variant_max_sparse_column_statistics_size" = "` + strconv.Itoa(d.SparseStatsSize) + `"`)
	}
	if d.SparseHashShards != 0 && d.SparseHashShards != 1 {
		b.WriteString(`,"variant_sparse_hash_shard_count" = "` + strconv.Itoa(d.SparseHashShards) + `"`)
	}
	b.WriteString(")>")
	return b.String()
}

// FieldFor returns the predefined field whose pattern matches the leaf
// path p (the first in declaration order), as
// VariantCompactionUtil's generate_sub_column_info: MATCH_NAME compares
// exactly, MATCH_NAME_GLOB uses fnmatch with FNM_PATHNAME ('*' and '?' do
// not match '/').
func (d *VariantDef) FieldFor(p string) (VariantField, bool) {
	if d == nil {
		return VariantField{}, false
	}
	for _, f := range d.Fields {
		if f.MatchName {
			if f.Pattern == p {
				return f, true
			}
			continue
		}
		if ok, err := path.Match(f.Pattern, p); err == nil && ok {
			return f, true
		}
	}
	return VariantField{}, false
}

// typedLeafText converts a leaf of a loaded document at a predefined path
// to the path's type and prints it as Doris prints a typed subcolumn of a
// VARIANT: numbers bare (DECIMAL at its scale, BOOLEAN as 1/0), strings,
// dates and IPs as JSON strings, arrays as [a, b]. ok is false when the
// value does not convert (the path is then left out, as a NULL).
func typedLeafText(n *jtree, t Type, loc *time.Location) (string, bool) {
	if t.Kind == Array {
		if n.kind != jArr {
			return "", false
		}
		var b strings.Builder
		b.WriteByte('[')
		for i, e := range n.kids {
			if i > 0 {
				b.WriteString(", ")
			}
			if e.kind == jNull {
				b.WriteString("null")
				continue
			}
			s, ok := typedLeafText(e, t.Nested.Elem, loc)
			if !ok {
				b.WriteString("null")
				continue
			}
			b.WriteString(s)
		}
		b.WriteByte(']')
		return b.String(), true
	}
	var v Value
	var err error
	switch n.kind {
	case jStr:
		v, err = ParseValue(n.s, t, loc)
	case jNum:
		src := Value{Kind: Double}
		if i, perr := strconv.ParseInt(n.s, 10, 64); perr == nil {
			src = Value{Kind: BigInt, I: i}
		} else {
			f, ferr := strconv.ParseFloat(n.s, 64)
			if ferr != nil {
				return "", false
			}
			src.F = f
		}
		v, err = Cast(src, t, loc)
	case jBool:
		v, err = Cast(NewBool(n.b), t, loc)
	default:
		return "", false
	}
	if err != nil || v.IsNull() {
		return "", false
	}
	switch v.Kind {
	case Boolean, TinyInt, SmallInt, Int, BigInt, LargeInt, Float, Double, Decimal:
		return Format(v, loc), true
	}
	return quoteJSONString(Format(v, loc)), true
}

// retypeVariant converts a stored VARIANT to a VARIANT type with typed
// paths (INSERT ... SELECT into a templated column): the document is
// rendered again with the template. Without one v is returned as is.
func retypeVariant(v Value, to Type, loc *time.Location) (Value, error) {
	if to.Variant == nil || len(to.Variant.Fields) == 0 || len(v.S) == 0 || v.S[0] != '{' || IsPlainVariantString(v) {
		return v, nil
	}
	return ParseVariantTyped(v.S, to.Variant, loc)
}
