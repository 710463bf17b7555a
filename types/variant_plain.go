package types

// PlainVariantString is a VARIANT string subcolumn holding s, as
// VariantElement returns a string leaf: it prints unquoted.
func PlainVariantString(s string) Value {
	return Value{Kind: Variant, S: s, I: variantPlainString}
}
