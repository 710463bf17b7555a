package engine

import (
	"strings"

	"loadgw/sql"
	"loadgw/types"
)

// explain is EXPLAIN [VERBOSE] query: loadgw's own plan as an indented
// tree, one line per row of the column Doris names "Explain String".
func (s *Session) explain(st *sql.Explain) (*Result, error) {
	q, ok := st.Stmt.(*sql.Select)
	if !ok {
		if ins, isInsert := st.Stmt.(*sql.Insert); isInsert && ins.Query != nil {
			q = ins.Query
		} else {
			return nil, errorf("EXPLAIN supports queries and INSERT ... SELECT only")
		}
	}
	stc := s.newStmt()
	defer stc.close()
	qp, err := (&planner{s: s, st: stc}).planQuery(q)
	if err != nil {
		return nil, err
	}
	verbose := strings.Contains(st.Level, "VERBOSE") || strings.Contains(st.Level, "ALL")
	var lines []string
	var names []string
	for _, c := range qp.out {
		names = append(names, c.Name)
	}
	lines = append(lines, "RESULT ["+strings.Join(names, ", ")+"]")
	explainTree(qp.root, verbose, "", true, &lines)
	res := &Result{ResultSet: true, Columns: []Column{{Name: "Explain String", Type: varcharType}}}
	for _, l := range lines {
		res.Rows = append(res.Rows, []types.Value{str(l)})
	}
	return res, nil
}

func explainTree(n relNode, verbose bool, indent string, last bool, lines *[]string) {
	label, kids := n.explain(verbose)
	if verbose {
		label += " (est. rows " + itoa(int(n.estimate())) + ")"
	}
	branch, next := "├─ ", "│  "
	if last {
		branch, next = "└─ ", "   "
	}
	*lines = append(*lines, indent+branch+label)
	for i, k := range kids {
		explainTree(k, verbose, indent+next, i == len(kids)-1, lines)
	}
}
