package engine

import (
	"strings"

	"loadgw/catalog"
	"loadgw/sql"
)

// modifyPartition is ALTER TABLE t MODIFY PARTITION p | (p1, p2) | (*)
// SET (...) (ModifyPartitionOp.validate and Alter.modifyPartitionsProperty):
// the names must exist, the properties pass Doris's checks, and they are
// kept on each partition. loadgw keeps them as metadata; none of them
// changes how rows are stored or loaded yet.
func modifyPartition(t *catalog.Table, op *sql.ModifyPartition) error {
	if op.Temporary {
		return errorf("MODIFY TEMPORARY PARTITION is not supported yet")
	}
	if len(op.Names) == 0 {
		return errorf("Partition names is not set or empty")
	}
	props := map[string]string{}
	for _, p := range op.Properties {
		props[strings.ToLower(p.Key)] = p.Value
	}
	if len(props) == 0 {
		return errorf("Properties is not set")
	}
	if err := checkPartitionProps(props); err != nil {
		return err
	}
	var parts []*catalog.PartitionDef
	if t.Partition != nil {
		if len(op.Names) == 1 && op.Names[0] == "*" {
			for i := range t.Partition.Parts {
				parts = append(parts, &t.Partition.Parts[i])
			}
		}
	}
	if parts == nil {
		for _, name := range op.Names {
			if name == "" {
				return errorf("there are empty partition name")
			}
			i := -1
			if t.Partition != nil {
				i = partitionIndex(t, name)
			}
			if i < 0 {
				if t.Partition == nil && (strings.EqualFold(name, t.Name) || name == "*") {
					continue // the one partition of an unpartitioned table
				}
				return errorf("Partition[%s] does not exist in table[%s]", name, t.Name)
			}
			parts = append(parts, &t.Partition.Parts[i])
		}
	}
	for _, p := range parts {
		if p.Properties == nil {
			p.Properties = map[string]string{}
		}
		for k, v := range props {
			p.Properties[k] = v
		}
	}
	return nil
}

// checkPartitionProps is ModifyPartitionOp.checkProperties: replica
// allocation, in_memory (only false), mutable (a boolean as Java's
// Boolean.parseBoolean reads it, kept as true or false).
func checkPartitionProps(props map[string]string) error {
	for _, k := range []string{"replication_num", "replication_allocation"} {
		if v, ok := props[k]; ok {
			if err := checkPropValue(k, v, tableProps[k]); err != nil {
				return err
			}
		}
	}
	if v, ok := props["in_memory"]; ok && strings.EqualFold(v, "true") {
		return errorf("Not support set 'in_memory'='true' now!")
	}
	if v, ok := props["mutable"]; ok {
		props["mutable"] = "false"
		if strings.EqualFold(v, "true") {
			props["mutable"] = "true"
		}
	}
	return nil
}
