package sql

// Begin is BEGIN [WITH LABEL [label]]: it starts a transaction of INSERTs
// (Doris's transaction mode). Label is "" when none was written.
type Begin struct {
	Span
	Label string
}

// Commit is COMMIT [WORK] [AND [NO] CHAIN] [[NO] RELEASE]; the options are
// accepted and ignored, as in Doris.
type Commit struct{ Span }

// Rollback is ROLLBACK [WORK] [AND [NO] CHAIN] [[NO] RELEASE].
type Rollback struct{ Span }

// StartTransaction is START TRANSACTION [WITH CONSISTENT SNAPSHOT], which
// Doris accepts and ignores: it starts no transaction.
type StartTransaction struct{ Span }

func (*Begin) stmtNode()            {}
func (*Commit) stmtNode()           {}
func (*Rollback) stmtNode()         {}
func (*StartTransaction) stmtNode() {}
