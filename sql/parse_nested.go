package sql

import (
	"strings"

	"loadgw/types"
)

// isNestedTypeStart reports whether ARRAY<, MAP< or STRUCT< starts here.
func (p *parser) isNestedTypeStart() bool {
	t := p.peek()
	return t.kind == tkIdent && (t.up == "ARRAY" || t.up == "MAP" || t.up == "STRUCT") && p.isOpN(1, "<")
}

// nestedType parses Doris's complexDataType:
//
//	ARRAY < dataType > | MAP < dataType , dataType > |
//	STRUCT < name : dataType [COMMENT 'c'] , ... >
//
// Doris's grammar has no element nullability (ARRAY<NOT NULL INT> is a
// syntax error there too): elements are always nullable.
func (p *parser) nestedType() types.Type {
	p.descend()
	defer p.ascend()
	t := p.next()
	p.expectOp("<")
	var out types.Type
	switch t.up {
	case "ARRAY":
		out = types.ArrayOf(p.innerType(), false)
	case "MAP":
		k := p.innerType()
		p.expectOp(",")
		out = types.MapOf(k, p.innerType())
	default:
		var fs []types.StructField
		for {
			f := types.StructField{Name: p.ident()}
			p.expectOp(":")
			f.Type = p.innerType()
			if c := p.optComment(); c != nil {
				f.Comment = *c
			}
			fs = append(fs, f)
			if !p.acceptOp(",") {
				break
			}
		}
		out = types.StructOf(fs)
	}
	p.expectOp(">")
	return out
}

// innerType parses an element type: a nested type or a scalar one.
func (p *parser) innerType() types.Type {
	if p.isNestedTypeStart() {
		return p.nestedType()
	}
	_, _, t := p.dataType()
	return t
}

// complexDataType parses a nested column type and validates it.
func (p *parser) complexDataType() (string, types.Type) {
	t := p.nestedType()
	if err := types.ValidateNested(t); err != nil {
		p.fail(err)
	}
	return strings.ToLower(t.SQLString()), t
}
