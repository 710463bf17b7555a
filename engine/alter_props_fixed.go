package engine

// fixedPropTexts are the table properties ALTER TABLE SET refuses with a
// text of their own (ModifyTablePropertiesOp.validate), before any check
// of the value.
var fixedPropTexts = map[string]string{
	"enable_unique_key_skip_bitmap_column":     "You can not modify property 'enable_unique_key_skip_bitmap_column'.",
	"enable_unique_key_merge_on_write":         "Can not change UNIQUE KEY to Merge-On-Write mode",
	"enable_duplicate_without_keys_by_default": "Can not change enable_duplicate_without_keys_by_default",
	"storage_page_size":                        "You can not modify storage_page_size|storage_dict_page_size property.",
	"storage_dict_page_size":                   "You can not modify storage_page_size|storage_dict_page_size property.",
	"storage_vault_name":                       "You can not modify storage vault name",
	"estimate_partition_size":                  "You can not modify estimate partition size",
}

// checkFixedProp refuses a property ALTER TABLE SET may never change.
func checkFixedProp(key string) error {
	if msg, ok := fixedPropTexts[key]; ok {
		return errorf("%s", msg)
	}
	return nil
}
