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

// Release tells the session its caller is done with res, an answer of
// Execute or ExecuteParsed, and with everything in it (its rows and their
// values): the session may reuse its memory for a later answer. The caller
// must not read res after, nor release it again (the memory may be the
// next answer's by then). Only the last answer of a point lookup is taken
// back; any other is left to the collector.
func (s *Session) Release(res *Result) {
	s.points.release(res)
}
