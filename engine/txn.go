package engine

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"time"

	"loadgw/catalog"
	"loadgw/labels"
	"loadgw/sql"
	"loadgw/storage"
	"loadgw/stream"
	"loadgw/upsert"
)

// Transactions of several statements (Doris's transaction mode)
//
// BEGIN [WITH LABEL l] starts a transaction of the session; the INSERTs
// that follow write nothing visible until COMMIT, which commits all of their
// rows with one TSO under one label, or ROLLBACK (or the end of the
// session), which leaves nothing. As in Doris, a transaction takes either
// INSERT ... VALUES into one table, or INSERT ... SELECT into tables of one
// database, not both; every other statement is refused while it is open;
// each statement reads the data committed when it starts, not the rows of
// the transaction's earlier statements. The rows wait in the session's
// memory, encoded, up to maxTxnBytes.

// maxTxnBytes bounds the encoded rows one open transaction holds.
var maxTxnBytes = 64 << 20

// txnMode is the kind of INSERT a transaction takes, fixed by its first.
type txnMode int

const (
	txnNone   txnMode = iota // no INSERT yet
	txnValues                // INSERT ... VALUES into one table
	txnSelect                // INSERT ... SELECT into tables of one database
)

// sessionTxn is the open transaction of a session (Doris TransactionEntry).
type sessionTxn struct {
	label string
	mode  txnMode
	// db, dbID: the database of the first INSERT; table and schema: the
	// one table of a VALUES transaction and its schema version then.
	db     string
	dbID   int64
	table  string
	schema uint32
	// txn is the labelled transaction begun by the first INSERT (nil
	// without a label store); id is its id.
	txn *labels.Txn
	id  int64
	// deadline: the first INSERT's time plus insertExecTimeout.
	deadline time.Time
	rows     upsert.TxnRows
	// consuming are the stream offsets the INSERTs read, moved at COMMIT.
	consuming map[int64]*stream.Consumption
}

// began reports whether an INSERT began the transaction.
func (t *sessionTxn) began() bool { return t.mode != txnNone }

// InTransaction reports whether the session has an open transaction.
func (s *Session) InTransaction() bool { return s.txn != nil }

// Close ends the session: an open transaction rolls back, as when Doris
// closes a connection (ConnectContext.closeTxn).
func (s *Session) Close() {
	if s.txn != nil {
		t := s.txn
		s.txn = nil
		_ = s.abortTxn(t)
	}
}

// errTxnOnly is Doris's refusal of a statement inside a transaction
// (StmtExecutor).
var errTxnOnly = errorf("This is in a transaction, only insert, update, delete, commit, rollback is acceptable.")

// txnStatement runs the transaction statements; ok is false for other
// statements, which it refuses inside a transaction.
func (s *Session) txnStatement(st sql.Statement) (res *Result, ok bool, err error) {
	switch st := st.(type) {
	case *sql.Begin:
		return s.begin(st.Label), true, nil
	case *sql.Commit:
		res, err = s.commit()
		return res, true, err
	case *sql.Rollback:
		res, err = s.rollback()
		return res, true, err
	case *sql.Insert:
		if st.Overwrite && s.txn != nil {
			return nil, true, errTxnOnly
		}
		return nil, false, nil
	case *sql.Update, *sql.Delete:
		return nil, false, nil
	case *sql.StartTransaction:
		if s.txn == nil {
			return &Result{}, true, nil // Doris's StartTransactionCommand does nothing
		}
	}
	if s.txn != nil {
		return nil, true, errTxnOnly
	}
	return nil, false, nil
}

// begin is TransactionBeginCommand: a BEGIN inside a transaction only
// renames it while no INSERT began it, and answers with no info.
func (s *Session) begin(label string) *Result {
	if label == "" {
		label = "txn_insert_" + queryID()
	}
	if s.txn != nil {
		if !s.txn.began() {
			s.txn.label = label
		}
		return &Result{}
	}
	s.txn = &sessionTxn{label: label}
	return &Result{Info: fmt.Sprintf("{'label':'%s', 'status':'%s', 'txnId':''}", label, labels.StatePrepare)}
}

// queryID is a new query id as Doris prints it (DebugUtil.printId).
func queryID() string {
	var id [16]byte
	_, _ = rand.Read(id[:])
	return strconv.FormatUint(binary.BigEndian.Uint64(id[:8]), 16) + "-" + strconv.FormatUint(binary.BigEndian.Uint64(id[8:]), 16)
}

// commit is TransactionCommitCommand: without a begun transaction it does
// nothing; a failed commit aborts the transaction.
func (s *Session) commit() (*Result, error) {
	t := s.txn
	s.txn = nil
	if t == nil || !t.began() {
		return &Result{}, nil
	}
	if !s.e.clock.Now().Before(t.deadline) {
		return nil, s.abortTimedOutTxn(t)
	}
	if err := s.commitTxn(t); err != nil {
		return nil, err
	}
	return &Result{Info: txnInfo(t.label, labels.StateVisible, t.id)}, nil
}

// rollback is TransactionRollbackCommand.
func (s *Session) rollback() (*Result, error) {
	t := s.txn
	s.txn = nil
	if t == nil || !t.began() {
		return &Result{}, nil
	}
	if err := s.abortTxn(t); err != nil {
		return nil, err
	}
	return &Result{Info: txnInfo(t.label, labels.StateAborted, t.id)}, nil
}

// txnInfo is the info string of a transaction statement's OK packet.
func txnInfo(label string, st labels.State, id int64) string {
	return fmt.Sprintf("{'label':'%s', 'status':'%s', 'txnId':'%d'}", label, st, id)
}

// reasonUserRollback is the abort reason of a ROLLBACK or a closed session
// (TransactionEntry.abortTransaction).
const reasonUserRollback = "user rollback"

// abortTxn aborts t's labelled transaction; its rows were never written.
func (s *Session) abortTxn(t *sessionTxn) error {
	store := s.e.txns.p.Load()
	if store == nil || t.txn == nil {
		return nil
	}
	return store.Abort(t.id, reasonUserRollback)
}

// commitTxn writes every row of t with one TSO, the label's VISIBLE record
// and the streams' new offsets in the same batch. Rows of tables dropped
// since are left out, as Doris skips them; a table whose schema changed
// fails the commit, which aborts t.
func (s *Session) commitTxn(t *sessionTxn) error {
	if err := s.checkTxnTables(t); err != nil {
		_ = s.abortTxn(t)
		return err
	}
	store := s.e.txns.p.Load()
	extra := func(b *storage.Batch, tso uint64) error {
		if len(t.consuming) > 0 {
			if err := s.e.streams.Stage(b, t.consuming, s.e.clock.Now().UnixMilli()); err != nil {
				return err
			}
		}
		if store == nil || t.txn == nil {
			return nil
		}
		return store.WriteCommit(b, t.txn, tso)
	}
	if _, err := s.e.writer.CommitTxn(&t.rows, extra); err != nil {
		s.e.streams.Reload(t.consuming)
		if store != nil && t.txn != nil {
			store.WriteFailed(t.txn)
			_ = store.Abort(t.id, err.Error())
		}
		return err
	}
	if store != nil && t.txn != nil {
		store.Published(t.txn)
	}
	return nil
}

// checkTxnTables drops the rows of tables dropped since they were
// written and refuses tables whose schema changed.
func (s *Session) checkTxnTables(t *sessionTxn) error {
	for _, tbl := range t.rows.Tables() {
		cur, err := s.e.cat.Table(tbl.DB, tbl.Name)
		if err != nil || cur.ID != tbl.ID {
			t.rows.Drop(tbl.ID)
			continue
		}
		if cur.SchemaVersion != tbl.SchemaVersion {
			return errSchemaChanged
		}
	}
	return nil
}

// errSchemaChanged is BatchInsertIntoTableCommand's refusal of a table
// whose schema changed inside a transaction.
var errSchemaChanged = errorf("There are schema changes in one transaction, you can commit this transaction with formal data or rollback this whole transaction.")

// txnBeginInsert admits an INSERT into t inside the open transaction and
// begins the transaction with the first one, before the INSERT reads
// anything (Doris: InsertUtils.executeBatchInsertTransaction for VALUES,
// OlapTxnInsertExecutor.beginTransaction for SELECT). It returns the id the
// INSERT answers with: the transaction's, or a sub transaction's for a
// later INSERT ... SELECT.
func (s *Session) txnBeginInsert(tbl *catalog.Table, st *sql.Insert) (int64, error) {
	t := s.txn
	if st.Query == nil {
		return s.txnBeginValues(t, tbl)
	}
	id, err := s.txnBeginSelect(t, tbl, st.Label)
	if err != nil {
		return 0, errorf("begin transaction failed. %s", err.Error())
	}
	return id, nil
}

func (s *Session) txnBeginValues(t *sessionTxn, tbl *catalog.Table) (int64, error) {
	switch t.mode {
	case txnSelect:
		return 0, errMixedTxn
	case txnValues:
		if t.db != tbl.DB || t.table != tbl.Name {
			return 0, errorf("Only one table can be inserted in one transaction.")
		}
		if tbl.SchemaVersion != t.schema {
			return 0, errSchemaChanged
		}
		return t.id, nil
	}
	if err := s.beginLabelled(t, tbl); err != nil {
		return 0, err
	}
	t.mode, t.table, t.schema = txnValues, tbl.Name, tbl.SchemaVersion
	return t.id, nil
}

func (s *Session) txnBeginSelect(t *sessionTxn, tbl *catalog.Table, label string) (int64, error) {
	if label != "" && label != t.label {
		return 0, fmt.Errorf("Transaction insert expect label %s, but got %s", t.label, label)
	}
	switch t.mode {
	case txnValues:
		return 0, errMixedTxn
	case txnSelect:
		if t.db != tbl.DB {
			return 0, fmt.Errorf("Transaction insert must be in the same database, expect db_id=%d", t.dbID)
		}
		if !s.e.clock.Now().Before(t.deadline) {
			return 0, errorf("The transaction is already timeout")
		}
		if store := s.e.txns.p.Load(); store != nil {
			return store.NewSubTxnID()
		}
		return t.id, nil
	}
	if err := s.beginLabelled(t, tbl); err != nil {
		return 0, err
	}
	t.mode = txnSelect
	return t.id, nil
}

// errMixedTxn refuses mixing the two kinds of INSERT in a transaction.
var errMixedTxn = errors.New("Transaction insert can not insert into values and insert into select at the same time")

// beginLabelled begins t's labelled transaction in tbl's database.
func (s *Session) beginLabelled(t *sessionTxn, tbl *catalog.Table) error {
	timeout := s.insertExecTimeout()
	if store := s.e.txns.p.Load(); store != nil {
		txn, err := store.BeginWithTimeout(tbl.DB, t.label, tbl.Name, timeout)
		if err != nil {
			return err
		}
		t.txn, t.id = txn, txn.ID
	}
	t.db = tbl.DB
	if d, ok := s.e.cat.Database(tbl.DB); ok {
		t.dbID = d.ID
	}
	t.deadline = s.e.clock.Now().Add(timeout)
	return nil
}

// txnAddRows keeps an INSERT's rows in the open transaction and answers
// as Doris does, with the transaction's label in PREPARE.
func (s *Session) txnAddRows(in upsert.Rows, id int64) (*Result, error) {
	t := s.txn
	if len(in.Rows) > 0 && t.rows.Bytes() > maxTxnBytes {
		return nil, errorf("The transaction holds more than %d bytes of rows; commit it or roll it back", maxTxnBytes)
	}
	if err := t.rows.Add(in); err != nil {
		if errors.Is(err, upsert.ErrSchemaChanged) {
			return nil, errSchemaChanged
		}
		return nil, err
	}
	if len(s.consuming) > 0 {
		if t.consuming == nil {
			t.consuming = map[int64]*stream.Consumption{}
		}
		for _, c := range s.consuming {
			stream.Merge(t.consuming, c)
		}
	}
	return &Result{Affected: int64(len(in.Rows)), Info: txnInfo(t.label, labels.StatePrepare, id)}, nil
}

// commitDML commits the rows of an UPDATE, or of a DELETE that writes
// delete markers, or inside a transaction keeps them as a sub transaction
// of INSERT ... SELECT kind, as Doris runs both as inserts.
func (s *Session) commitDML(t *catalog.Table, in upsert.Rows) (*Result, error) {
	if s.txn == nil {
		if _, err := s.e.writer.Commit(in); err != nil {
			return nil, err
		}
		return &Result{Affected: int64(len(in.Rows))}, nil
	}
	id, err := s.txnBeginSelect(s.txn, t, "")
	if err != nil {
		return nil, errorf("begin transaction failed. %s", err.Error())
	}
	return s.txnAddRows(in, id)
}
