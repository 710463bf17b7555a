package engine

import "loadgw/sql"

// ExecuteParsed runs statements parsed from src (sql.Parse), as Execute
// runs the statements of a text: in order, the last one's result, the
// first failure stops the run. The statements are only read, so a caller
// may run them again (the MySQL protocol's prepared statements do, with
// new parameter values in their literals).
func (s *Session) ExecuteParsed(stmts []sql.Statement, src string) (*Result, error) {
	if len(stmts) == 0 {
		return nil, errorf("Nothing to execute")
	}
	var res *Result
	var err error
	for _, st := range stmts {
		res, err = s.runObserved(st, src)
		if err != nil {
			return nil, err
		}
	}
	return res, nil
}
