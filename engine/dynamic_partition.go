package engine

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"loadgw/catalog"
	"loadgw/types"
)

// Doris's dynamic partition properties (DynamicPartitionProperty), checked
// as DynamicPartitionUtil checks them when a table is created. loadgw
// keeps and shows them; it does not create or drop partitions on a
// schedule.

const dynamicPartitionPrefix = "dynamic_partition."

// dynamicPartitionKeys are DynamicPartitionProperty.DYNAMIC_PARTITION_PROPERTIES.
var dynamicPartitionKeys = []string{"time_unit", "start", "end", "prefix", "buckets", "enable",
	"start_day_of_week", "start_day_of_month", "time_zone", "replication_num", "replication_allocation",
	"create_history_partition", "history_partition_num", "hot_partition_num", "reserved_history_periods",
	"storage_policy", "storage_medium"}

// partitionNameRE is FeNameFormat's partition name rule.
var partitionNameRE = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9_]*$`)

// checkDynamicPartition validates the dynamic_partition.* properties of a
// new table (checkDynamicPartitionPropertyKeysValid,
// checkInputDynamicPartitionProperties and analyzeDynamicPartition).
func checkDynamicPartition(t *catalog.Table, props map[string]string) error {
	dp := map[string]string{}
	var invalid []string
	for k, v := range props {
		name, ok := strings.CutPrefix(k, dynamicPartitionPrefix)
		if !ok {
			continue
		}
		if !slices.Contains(dynamicPartitionKeys, name) {
			invalid = append(invalid, k)
			continue
		}
		dp[name] = v
	}
	if len(invalid) > 0 {
		slices.Sort(invalid)
		return errorf("Invalid dynamic partition properties: %s", strings.Join(invalid, ", "))
	}
	if len(dp) == 0 {
		return nil
	}
	if t.Partition == nil || t.Partition.Type != "RANGE" || len(t.Partition.Columns) != 1 {
		return errorf("Dynamic partition only support single-column range partition")
	}
	for _, req := range []string{"time_unit", "prefix", "end"} {
		if dp[req] == "" {
			return errorf("Must assign dynamic_partition.%s properties", req)
		}
	}
	return analyzeDynamicPartition(t, dp)
}

// analyzeDynamicPartition checks each value in Doris's order.
func analyzeDynamicPartition(t *catalog.Table, dp map[string]string) error {
	if v, ok := dp["time_unit"]; ok {
		if err := checkTimeUnit(t, v); err != nil {
			return err
		}
	}
	if v, ok := dp["prefix"]; ok && !partitionNameRE.MatchString(v) {
		return errorf("Invalid dynamic partition prefix: %s.", v)
	}
	if v, ok := dp["buckets"]; ok {
		n, err := strconv.ParseInt(v, 10, 32)
		switch {
		case v == "":
			return errorf("Dynamic partition buckets is empty")
		case err != nil:
			return errorf("Invalid dynamic partition buckets %s", v)
		case n <= 0:
			return errorf("Dynamic partition buckets must greater than 0")
		}
	}
	if v, ok := dp["enable"]; ok && !strings.EqualFold(v, "true") && !strings.EqualFold(v, "false") {
		return errorf("Invalid dynamic partition enable: %s. Expected true or false", v)
	}
	if v, ok := dp["start"]; ok {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return errorf("Invalid dynamic partition start %s", v)
		}
		if n >= 0 {
			return errorf("Dynamic partition start must less than 0")
		}
	}
	if v, ok := dp["end"]; ok {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return errorf("Invalid dynamic partition end %s", v)
		}
		if n <= 0 && !(n == 0 && t.Partition.Auto) {
			return errorf("Dynamic partition end must greater than 0")
		}
	}
	if v, ok := dp["create_history_partition"]; ok && !strings.EqualFold(v, "true") && !strings.EqualFold(v, "false") {
		return errorf("Invalid dynamic partition create_history_partition: %s. Expected true or false", v)
	}
	if v, ok := dp["history_partition_num"]; ok {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return errorf("Invalid properties: dynamic_partition.history_partition_num")
		}
		if n < 0 && n != -1 {
			return errorf("Dynamic history partition num must greater than 0")
		}
	}
	return nil
}

// checkTimeUnit is DynamicPartitionUtil.checkTimeUnit.
func checkTimeUnit(t *catalog.Table, unit string) error {
	switch strings.ToUpper(unit) {
	case "HOUR", "DAY", "WEEK", "MONTH", "YEAR":
	default:
		return errorf("Unsupported time unit %s. Expect HOUR/DAY/WEEK/MONTH/YEAR.", unit)
	}
	if !strings.EqualFold(unit, "HOUR") {
		return nil
	}
	col, _ := t.Column(t.Partition.Columns[0])
	if col == nil {
		return nil
	}
	switch col.Type.Kind {
	case types.Date:
		return errorf("dynamic_partition.time_unit could not be HOUR when type of partition column %s is DATE or DATEV2", col.Name)
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.LargeInt:
		return errorf("dynamic_partition.time_unit could not be HOUR when type of partition column %s is Integer", col.Name)
	}
	return nil
}
