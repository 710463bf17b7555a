package sql

import (
	"strings"

	"loadgw/types"
)

// aggTypes are the aggregation types of AGGREGATE KEY value columns.
var aggTypes = []string{"SUM", "MAX", "MIN", "REPLACE_IF_NOT_NULL", "REPLACE",
	"HLL_UNION", "BITMAP_UNION", "QUANTILE_UNION", "GENERIC"}

// columnDef parses a column definition in Doris's fixed clause order.
func (p *parser) columnDef() *ColumnDef {
	t := p.peek()
	c := &ColumnDef{P: t.off, Name: p.ident(), OnUpdatePrecision: -1}
	c.TypeName, c.TypeArgs, c.Type = p.dataType()
	c.Key = p.acceptKw("KEY")
	for _, a := range aggTypes {
		if p.acceptKw(a) {
			c.AggType = a
			break
		}
	}
	if p.acceptKws("GENERATED", "ALWAYS") {
		p.expectKw("AS")
		c.Generated = p.parenExpr()
	} else if p.acceptKw("AS") {
		c.Generated = p.parenExpr()
	}
	c.Nullable = p.optNullable()
	p.autoIncrement(c)
	if p.acceptKw("DEFAULT") {
		c.Default = p.defaultValue()
	}
	if p.acceptKws("ON", "UPDATE") {
		p.expectKw("CURRENT_TIMESTAMP")
		c.OnUpdate = true
		c.OnUpdatePrecision = p.optPrecision()
	}
	if cm := p.optComment(); cm != nil {
		c.Comment = *cm
	}
	return c
}

// optNullable parses [NOT] NULL; nil when neither was written.
func (p *parser) optNullable() *bool {
	switch {
	case p.acceptKws("NOT", "NULL"):
		f := false
		return &f
	case p.acceptKw("NULL"):
		t := true
		return &t
	}
	return nil
}

func (p *parser) autoIncrement(c *ColumnDef) {
	if !p.acceptKw("AUTO_INCREMENT") {
		return
	}
	c.AutoIncrement = true
	if p.acceptOp("(") {
		n := p.int64Lit()
		c.AutoIncStart = &n
		p.expectOp(")")
	}
}

// optPrecision parses an optional (n) after CURRENT_TIMESTAMP; -1 if absent.
func (p *parser) optPrecision() int {
	if !p.acceptOp("(") {
		return -1
	}
	n := p.int64Lit()
	p.expectOp(")")
	if n < 0 || n > 6 {
		p.fail(errAt(p.toks[p.i-2], "precision must be between 0 and 6"))
	}
	return int(n)
}

// defaultValue parses what follows DEFAULT.
func (p *parser) defaultValue() *DefaultValue {
	t := p.peek()
	switch {
	case p.acceptKw("NULL"):
		return &DefaultValue{Kind: DefaultNull, Precision: -1}
	case t.kind == tkString:
		p.next()
		return &DefaultValue{Kind: DefaultString, Text: t.text, Precision: -1}
	case t.kind == tkInt || t.kind == tkDecimal || p.isOp("-"):
		return &DefaultValue{Kind: DefaultNumber, Text: p.defaultNumber(), Precision: -1}
	case p.acceptKw("CURRENT_TIMESTAMP"):
		return &DefaultValue{Kind: DefaultCurrentTimestamp, Precision: p.optPrecision()}
	case p.acceptKw("CURRENT_DATE"):
		return &DefaultValue{Kind: DefaultCurrentDate, Precision: -1}
	case p.acceptKw("PI"):
		return &DefaultValue{Kind: DefaultPi, Precision: -1}
	case p.acceptKw("E"):
		return &DefaultValue{Kind: DefaultE, Precision: -1}
	case p.acceptKw("BITMAP_EMPTY"):
		return &DefaultValue{Kind: DefaultBitmapEmpty, Precision: -1}
	}
	p.expect("STRING_LITERAL")
	p.expect("INTEGER_VALUE")
	p.mismatch()
	return nil
}

// defaultNumber parses -?(INTEGER|DECIMAL) and returns it as written.
func (p *parser) defaultNumber() string {
	neg := p.acceptOp("-")
	p.expect("INTEGER_VALUE")
	p.expect("DECIMAL_VALUE")
	t := p.peek()
	if t.kind != tkInt && t.kind != tkDecimal {
		p.mismatch()
	}
	p.next()
	if neg {
		return "-" + t.text
	}
	return t.text
}

// typeNames are the primitive type names of Doris's grammar.
var typeNames = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`tinyint smallint int integer bigint largeint
		boolean float double date datetime time datev2 datetimev2 datev1 datetimev1
		bitmap quantile_state hll agg_state string json jsonb text varchar char
		decimal decimalv2 decimalv3 ipv4 ipv6 variant timestamptz`) {
		typeNames[n] = true
	}
}

// dataType parses a type name with optional arguments and builds it with
// types.ParseType; ARRAY, MAP and STRUCT are spelled out in name
// (`array<int>`) with no args.
func (p *parser) dataType() (name string, args []int, typ types.Type) {
	t := p.peek()
	name = strings.ToLower(t.text)
	if p.isNestedTypeStart() {
		name, typ = p.complexDataType()
		return name, nil, typ
	}
	if p.isVariantTemplateStart() {
		name, typ = p.variantDataType()
		return name, nil, typ
	}
	if t.kind == tkIdent && t.up == "AGG_STATE" && p.isOpN(1, "<") {
		typ = p.aggStateDataType()
		return name, nil, typ
	}
	if t.kind != tkIdent || !typeNames[name] {
		for _, n := range []string{"'INT'", "'BIGINT'", "'VARCHAR'", "'STRING'", "'DECIMAL'", "'DATETIME'"} {
			p.expect(n)
		}
		p.mismatch()
	}
	p.next()
	if p.acceptOp("(") {
		args = p.typeArgs()
	}
	typ, err := types.ParseType(name, parseTypeArgs(args))
	if err != nil {
		p.fail(err)
	}
	return name, args, typ
}

// typeArgs parses INTEGER|* (, INTEGER)* ) after the opening parenthesis.
func (p *parser) typeArgs() []int {
	var args []int
	if p.acceptOp("*") {
		args = append(args, -1)
	} else {
		args = append(args, int(p.int64Lit()))
	}
	for p.acceptOp(",") {
		args = append(args, int(p.int64Lit()))
	}
	p.expectOp(")")
	return args
}

// parseTypeArgs drops the `*` length of VARCHAR(*) and CHAR(*), which
// means the maximum; types.ParseType handles the rest (it ignores integer
// display widths as Doris does).
func parseTypeArgs(args []int) []int {
	if len(args) == 1 && args[0] == -1 {
		return nil
	}
	return args
}
