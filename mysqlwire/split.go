package mysqlwire

import "loadgw/sql"

// splitStatements parses a multi-statement text whole and returns the text
// of each statement, in order.
func splitStatements(q string) ([]string, error) {
	stmts, err := sql.Parse(q)
	if err != nil {
		return nil, err
	}
	if len(stmts) <= 1 {
		return []string{q}, nil
	}
	out := make([]string, len(stmts))
	for i, st := range stmts {
		sp := st.Source()
		out[i] = q[sp.Start:sp.End]
	}
	return out, nil
}
