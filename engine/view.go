package engine

import (
	"loadgw/sql"
)

type viewDef struct{}

// lookupView finds a view by name; ok is false when no view has it.
func (s *Session) lookupView(tn sql.TableName) (*viewDef, bool, error) {
	return nil, false, nil
}

func (p *planner) planView(v *viewDef, from *sql.TableRef) (*source, error) {
	return nil, errorf("views are not supported yet")
}
