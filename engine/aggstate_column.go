package engine

import (
	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// checkAggStateColumn applies Doris's rules for an AGG_STATE<fn(args)>
// column (Nereids ColumnDefinition.validate, catalog Column): fn must be
// an aggregate with AGG_STATE combinators taking those arguments, GENERIC
// needs enable_agg_state, the column is never a key and never NULL, and it
// aggregates only with GENERIC, NONE or the REPLACEs.
func checkAggStateColumn(cd *sql.ColumnDef, c *catalog.Column, s *Session) error {
	if cd.Type.Kind != types.AggState {
		if cd.AggType == "GENERIC" && !isTrue(s.Var("enable_agg_state")) {
			return errorf("agg state not enable, need set enable_agg_state=true")
		}
		return nil
	}
	if err := expr.CheckAggStateType(cd.Type); err != nil {
		return err
	}
	if cd.Key {
		return errorf("AGG_STATE can only be used in the non-key column at present.")
	}
	switch cd.AggType {
	case "", "GENERIC", "NONE", "REPLACE", "REPLACE_IF_NOT_NULL":
	default:
		return errorf("AGG_STATE column can't support aggregation %s", cd.AggType)
	}
	if cd.AggType == "GENERIC" && !isTrue(s.Var("enable_agg_state")) {
		return errorf("agg state not enable, need set enable_agg_state=true")
	}
	c.Nullable = false // catalog Column: an AGG_STATE column is never NULL
	return nil
}

func isTrue(v string) bool { return v == "true" || v == "1" }

// isHiddenResultType reports whether result values of type t show as NULL
// (hideObjects): HLL, BITMAP, QUANTILE_STATE and AGG_STATE.
func isHiddenResultType(t types.Type) bool {
	return isObjectType(t) || t.Kind == types.AggState
}
