package engine

import (
	"sort"
	"strconv"
	"strings"

	"loadgw/binlog"
	"loadgw/catalog"
)

// propKind says how a table property value is validated.
type propKind uint8

const (
	propAny propKind = iota
	propBool
	propInt
	propPositiveInt
	// propGroupCommit values are checked as Doris checks
	// group_commit_interval_ms and group_commit_data_bytes (props_groupcommit.go).
	propGroupCommit
	// propBinlog values are analysed by binlog.AnalyzeValue.
	propBinlog
)

// propDef is one known table property.
type propDef struct {
	kind propKind
	// alterable properties may be changed by ALTER TABLE SET.
	alterable bool
}

// tableProps are the table properties loadgw accepts, with how each is
// validated and whether ALTER TABLE ... SET may change it.
var tableProps = map[string]propDef{
	"replication_num":                                {kind: propPositiveInt, alterable: true},
	"replication_allocation":                         {alterable: true},
	"min_load_replica_num":                           {kind: propInt, alterable: true},
	"storage_medium":                                 {alterable: true},
	"storage_cooldown_time":                          {alterable: true},
	"storage_format":                                 {},
	"inverted_index_storage_format":                  {},
	"compression":                                    {},
	"enable_unique_key_merge_on_write":               {kind: propBool},
	"enable_unique_key_skip_bitmap_column":           {kind: propBool},
	"enable_unique_key_replace_if_not_null":          {kind: propBool},
	"light_schema_change":                            {kind: propBool, alterable: true},
	"disable_auto_compaction":                        {kind: propBool, alterable: true},
	"enable_single_replica_compaction":               {kind: propBool, alterable: true},
	"group_commit_interval_ms":                       {kind: propGroupCommit, alterable: true},
	"group_commit_data_bytes":                        {kind: propGroupCommit, alterable: true},
	"enable_mow_light_delete":                        {kind: propBool, alterable: true},
	"bloom_filter_columns":                           {alterable: true},
	"bloom_filter_fpp":                               {alterable: true},
	"in_memory":                                      {kind: propBool, alterable: true},
	"is_being_synced":                                {kind: propBool, alterable: true},
	"colocate_with":                                  {alterable: true},
	"store_row_column":                               {kind: propBool, alterable: true},
	"row_store_columns":                              {alterable: true},
	"row_store_page_size":                            {kind: propPositiveInt},
	"storage_page_size":                              {kind: propPositiveInt},
	"storage_dict_page_size":                         {kind: propPositiveInt},
	"skip_write_index_on_load":                       {kind: propBool, alterable: true},
	"compaction_policy":                              {alterable: true},
	"time_series_compaction_goal_size_mbytes":        {kind: propPositiveInt, alterable: true},
	"time_series_compaction_file_count_threshold":    {kind: propPositiveInt, alterable: true},
	"time_series_compaction_time_threshold_seconds":  {kind: propPositiveInt, alterable: true},
	"time_series_compaction_empty_rowsets_threshold": {kind: propInt, alterable: true},
	"time_series_compaction_level_threshold":         {kind: propPositiveInt, alterable: true},
	"estimate_partition_size":                        {},
	"enable_duplicate_without_keys_by_default":       {kind: propBool},
	"storage_policy":                                 {alterable: true},
	"storage_vault_name":                             {},
	"file_cache_ttl_seconds":                         {kind: propInt, alterable: true},
	"variant_enable_flatten_nested":                  {kind: propBool},
	"variant_max_subcolumns_count":                   {kind: propInt},
	"partition.retention_count":                      {kind: propInt, alterable: true},
	"function_column.sequence_col":                   {},
	"function_column.sequence_type":                  {},
	"function_column.enable_row_ttl":                 {kind: propBool},
	"function_column.ttl_col":                        {},
	"function_column.ttl":                            {alterable: true},
	"function_column.ttl_time_zone":                  {},
	"binlog.enable":                                  {kind: propBinlog, alterable: true},
	"binlog.format":                                  {kind: propBinlog, alterable: true},
	"binlog.need_historical_value":                   {kind: propBinlog, alterable: true},
	"binlog.ttl_seconds":                             {kind: propBinlog, alterable: true},
	"binlog.max_bytes":                               {kind: propBinlog, alterable: true},
	"binlog.max_history_nums":                        {kind: propBinlog, alterable: true},
	"auto_bucket":                                    {kind: propBool},
	"dynamic_partition.enable":                       {kind: propBool, alterable: true},
	"dynamic_partition.time_unit":                    {alterable: true},
	"dynamic_partition.start":                        {kind: propInt, alterable: true},
	"dynamic_partition.end":                          {kind: propInt, alterable: true},
	"dynamic_partition.prefix":                       {alterable: true},
	"dynamic_partition.buckets":                      {kind: propPositiveInt, alterable: true},
	"dynamic_partition.history_partition_num":        {kind: propInt, alterable: true},
	"dynamic_partition.create_history_partition":     {kind: propBool, alterable: true},
}

// checkPropValue validates one property value by its kind.
func checkPropValue(key, val string, def propDef) error {
	switch def.kind {
	case propBool:
		if !strings.EqualFold(val, "true") && !strings.EqualFold(val, "false") {
			return errorf("Invalid %s value: %s", key, val)
		}
	case propInt, propPositiveInt:
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return errorf("Invalid %s format: %s", key, val)
		}
		if def.kind == propPositiveInt && n <= 0 {
			return errorf("%s must be greater than 0", key)
		}
	case propBinlog:
		_, err := binlog.AnalyzeValue(key, val)
		return err
	case propGroupCommit:
		return checkGroupCommitCreate(key, val)
	}
	return nil
}

// unknownProps formats Doris's error for properties nobody consumed.
func unknownProps(m map[string]string) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return errorf("Unknown properties: {%s}", strings.Join(parts, ", "))
}

// effectiveProps computes the stored properties of a new table from the
// given ones and Doris's defaults.
func effectiveProps(given map[string]string, keys catalog.KeysType, dbProps map[string]string) map[string]string {
	p := map[string]string{}
	for k, v := range given {
		p[k] = v
	}
	if n, ok := p["replication_num"]; ok {
		if _, set := p["replication_allocation"]; !set {
			p["replication_allocation"] = "tag.location.default: " + n
		}
		delete(p, "replication_num")
	}
	def := func(k, v string) {
		if _, ok := p[k]; !ok {
			p[k] = v
		}
	}
	def("replication_allocation", "tag.location.default: 3")
	def("min_load_replica_num", "-1")
	def("is_being_synced", "false")
	def("storage_medium", "hdd")
	def("storage_format", "V2")
	def("inverted_index_storage_format", "V3")
	def("light_schema_change", "true")
	def("disable_auto_compaction", "false")
	def("enable_single_replica_compaction", "false")
	def("group_commit_interval_ms", "10000")
	def("group_commit_data_bytes", "134217728")
	if keys == catalog.UniqueKeys {
		def("enable_unique_key_merge_on_write", "true")
		if p["enable_unique_key_merge_on_write"] == "true" {
			def("enable_mow_light_delete", "false")
		}
	}
	binlog.ApplyDefaults(p, dbProps)
	for k, v := range p {
		if tableProps[k].kind == propBool {
			p[k] = strings.ToLower(v)
		}
	}
	p["storage_medium"] = strings.ToLower(p["storage_medium"])
	return p
}

// showPropOrder is the order in which SHOW CREATE TABLE prints properties
// (Doris's Env.addOlapTablePropertyInfo); each is printed when present.
var showPropOrder = []string{
	"replication_allocation",
	"min_load_replica_num",
	"bloom_filter_columns",
	"bloom_filter_fpp",
	"is_being_synced",
	"colocate_with",
	"dynamic_partition.enable",
	"dynamic_partition.time_unit",
	"dynamic_partition.start",
	"dynamic_partition.end",
	"dynamic_partition.prefix",
	"dynamic_partition.buckets",
	"dynamic_partition.history_partition_num",
	"dynamic_partition.create_history_partition",
	"partition.retention_count",
	"in_memory",
	"storage_medium",
	"storage_format",
	"inverted_index_storage_format",
	"compression",
	"estimate_partition_size",
	"enable_unique_key_merge_on_write",
	"enable_unique_key_skip_bitmap_column",
	"enable_unique_key_replace_if_not_null",
	"light_schema_change",
	"storage_policy",
	"function_column.sequence_col",
	"function_column.sequence_type",
	"function_column.enable_row_ttl",
	"function_column.ttl_col",
	"function_column.ttl",
	"function_column.ttl_time_zone",
	"store_row_column",
	"row_store_columns",
	"row_store_page_size",
	"storage_page_size",
	"storage_dict_page_size",
	"skip_write_index_on_load",
	"compaction_policy",
	"time_series_compaction_goal_size_mbytes",
	"time_series_compaction_file_count_threshold",
	"time_series_compaction_time_threshold_seconds",
	"time_series_compaction_empty_rowsets_threshold",
	"time_series_compaction_level_threshold",
	"storage_vault_name",
	"disable_auto_compaction",
	"variant_enable_flatten_nested",
	"binlog.enable",
	"binlog.ttl_seconds",
	"binlog.max_bytes",
	"binlog.max_history_nums",
	"binlog.format",
	"binlog.need_historical_value",
	"enable_single_replica_compaction",
	"group_commit_interval_ms",
	"group_commit_data_bytes",
	"enable_mow_light_delete",
	"enable_duplicate_without_keys_by_default",
}

// shownProps lists the (key, value) pairs SHOW CREATE TABLE prints.
func shownProps(t *catalog.Table, binlogFeature bool) [][2]string {
	var out [][2]string
	for _, k := range showPropOrder {
		v, ok := t.Properties[k]
		if binlog.IsProperty(k) {
			if !binlogFeature {
				continue
			}
			v, ok = binlog.Shown(t.Properties, k)
		}
		if !ok {
			continue
		}
		switch k {
		case "in_memory", "skip_write_index_on_load", "variant_enable_flatten_nested", "store_row_column":
			if v != "true" {
				continue
			}
		case "light_schema_change":
			if v != "true" {
				continue
			}
		case "compression":
			if strings.EqualFold(v, "ZSTD") {
				continue
			}
		case "enable_unique_key_skip_bitmap_column", "enable_unique_key_replace_if_not_null":
			if v != "true" {
				continue
			}
		}
		out = append(out, [2]string{k, v})
	}
	return out
}
