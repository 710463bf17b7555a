package sql

import "loadgw/types"

// isVariantTemplateStart reports whether VARIANT< starts here.
func (p *parser) isVariantTemplateStart() bool {
	t := p.peek()
	return t.kind == tkIdent && t.up == "VARIANT" && p.isOpN(1, "<")
}

// variantDataType parses Doris's variantTypeDefinitions after VARIANT:
//
//	VARIANT < variantSubColType (, variantSubColType)* [, PROPERTIES (...)] >
//	VARIANT < PROPERTIES (...) >
//	variantSubColType: [MATCH_NAME | MATCH_NAME_GLOB] 'pattern' : dataType [COMMENT 'c']
//
// and builds the template with types.NewVariantDef (property and sub-type
// checks in Doris's words).
func (p *parser) variantDataType() (string, types.Type) {
	p.descend()
	defer p.ascend()
	p.next() // VARIANT
	p.expectOp("<")
	var fields []types.VariantField
	var props [][2]string
	for {
		if p.acceptKw("PROPERTIES") {
			for _, kv := range p.propertyList() {
				props = append(props, [2]string{kv.Key, kv.Value})
			}
			break
		}
		var f types.VariantField
		switch {
		case p.acceptKw("MATCH_NAME"):
			f.MatchName = true
		case p.acceptKw("MATCH_NAME_GLOB"):
		}
		f.Pattern = p.stringLit()
		p.expectOp(":")
		f.Type = p.innerType()
		if c := p.optComment(); c != nil {
			f.Comment = *c
		}
		fields = append(fields, f)
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(">")
	def, err := types.NewVariantDef(fields, props)
	if err != nil {
		p.fail(err)
	}
	t := types.Type{Kind: types.Variant, Variant: def}
	return t.SQLString(), t
}
