package sql

// Statements about the cluster loadgw stands in for: one frontend and one
// backend in one process.

// Sync is SYNC: Doris waits until this frontend's metadata catches up with
// the master's. loadgw has one copy of its metadata; it is a no-op.
type Sync struct{ Span }

// ShowFrontends is SHOW FRONTENDS [name].
type ShowFrontends struct {
	Span
	Name string
}

// ShowBackends is SHOW BACKENDS.
type ShowBackends struct{ Span }

func (*Sync) stmtNode()          {}
func (*ShowFrontends) stmtNode() {}
func (*ShowBackends) stmtNode()  {}

// showCluster parses SHOW FRONTENDS / SHOW BACKENDS after SHOW, or returns
// nil when the tokens start neither.
func (p *parser) showCluster() Statement {
	switch {
	case p.acceptKw("FRONTENDS"):
		s := &ShowFrontends{}
		if p.isIdent() {
			s.Name = p.ident()
		}
		return s
	case p.acceptKw("BACKENDS"):
		return &ShowBackends{}
	}
	return nil
}
