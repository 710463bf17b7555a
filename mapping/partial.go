package mapping

import (
	"loadgw/catalog"
	"loadgw/ttl"
	"loadgw/types"
)

// CheckPartial reports, with Doris's FE texts, why t cannot take an update
// in mode u: row TTL, a table that is not merge-on-write Unique Key or has
// cluster keys refuse partial updates, a flexible one also refuses a table
// with rollups and needs the skip bitmap column, light schema change and no
// variant column. It returns nil
// for Upsert and for a table that can. Errors are *Error.
func CheckPartial(t *catalog.Table, u UpdateMode) error {
	if u == Upsert {
		return nil
	}
	switch {
	case ttl.Enabled(t):
		return errorf(ttl.ErrPartialUpdate.Error())
	case !t.MergeOnWrite():
		return errorf("Only unique key merge on write support partial update")
	case u == Flexible && len(t.Rollups) > 0:
		// The flexible spec refuses tables with synchronous materialized
		// views, rollups included; Doris's NereidsStreamLoadPlanner gives
		// this text for a materialized view with expression columns.
		return errorf("Can't do partial update on merge-on-write Unique table with sync materialized view.")
	case len(t.SyncMVs) > 0:
		// NereidsStreamLoadPlanner and InsertUtils: a table with a
		// synchronous materialized view refuses partial updates.
		return errorf("Can't do partial update on merge-on-write Unique table with sync materialized view.")
	case len(t.ClusterBy) > 0:
		return errorf("Can't do partial update on merge-on-write Unique table with cluster keys")
	}
	if u != Flexible {
		return nil
	}
	if c, _ := t.Column(catalog.SkipBitmapCol); c == nil {
		return errorf("Flexible partial update can only support table with skip bitmap hidden column. But table " + t.Name +
			" doesn't have it. You can use `ALTER TABLE " + t.Name + " ENABLE FEATURE \"UPDATE_FLEXIBLE_COLUMNS\";` to add it to the table.")
	}
	if t.Properties["light_schema_change"] != "true" {
		return errorf("Flexible partial update can only support table with light_schema_change enabled. But table " + t.Name + "'s property light_schema_change is false")
	}
	for _, c := range t.Columns {
		if c.Type.Kind == types.Variant {
			return errorf("Flexible partial update can only support table without variant columns.")
		}
	}
	return nil
}

// checkPartialKeys requires a fixed-columns partial update to give every
// key column but an auto-increment one.
func checkPartialKeys(t *catalog.Table, provided []bool) error {
	for i, c := range t.Columns {
		if c.IsKey && !provided[i] && !c.AutoInc {
			return errorf("Partial update should include all key columns, missing: " + c.Name)
		}
	}
	return nil
}
