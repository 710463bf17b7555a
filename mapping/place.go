package mapping

import (
	"loadgw/catalog"
	"loadgw/types"
)

// resolvePartitions returns the locator of t's partitions (nil when rows
// need no placing) and the partitions rows may go to (nil: all). A name t
// does not have is an *Error. An INSERT checks the names only on a table
// with a locator, and "*" there means all partitions.
func (m *Mapping) resolvePartitions() (*catalog.PartitionLocator, map[string]bool, error) {
	t := m.t
	part, err := t.NewPartitionLocator()
	if err != nil || (part == nil && m.insert) {
		return nil, nil, err
	}
	var targets map[string]bool
	for _, name := range m.partitions {
		if m.insert && name == "*" {
			targets = nil
			break
		}
		if err := t.CheckPartition(name); err != nil {
			return nil, nil, errorf(err.Error())
		}
		if targets == nil {
			targets = map[string]bool{}
		}
		targets[name] = true
	}
	return part, targets, nil
}

// partitionReason is the filter reason of a row no allowed partition takes,
// or "".
func (b *Builder) partitionReason(row []types.Value) string {
	return placeReason(b.m.t, b.part, b.targets, row)
}

func placeReason(t *catalog.Table, part *catalog.PartitionLocator, targets map[string]bool, row []types.Value) string {
	if part == nil {
		return ""
	}
	name := part.Locate(row)
	if name != "" && (targets == nil || targets[name]) {
		return ""
	}
	return "no partition for this tuple. tuple=" + part.Describe(t, row)
}
