package engine

import (
	"strconv"
	"strings"
	"time"

	"loadgw/expr"
	"loadgw/labels"
	"loadgw/sql"
	"loadgw/types"
)

// showTransaction is ShowTransactionCommand: the txn of a label or id of
// the database, in TransProcDir's columns. loadgw runs one coordinator and
// keeps no source type per txn: Coordinator is "FE: 127.0.0.1" and
// LoadJobSourceType BACKEND_STREAMING for every txn.
func (s *Session) showTransaction(st *sql.ShowTransaction) (*Result, error) {
	db := st.DB
	if db == "" {
		if db = s.db; db == "" {
			return nil, errorf("No database selected")
		}
	}
	if _, ok := s.e.cat.Database(db); !ok {
		return nil, errorf("Unknown database '%s'", db)
	}
	if st.Where == nil {
		return nil, errorf("Missing transaction id")
	}
	id, label, ok := txnFilter(st.Where)
	if !ok {
		return nil, errorf("Where clause should looks like one of them: id = 123 or label =/like 'label' " +
			"or status = 'prepare/precommitted/committed/visible/aborted'")
	}
	store := s.e.txns.p.Load()
	var txn *labels.Txn
	var err error
	switch {
	case store == nil:
	case label != "":
		txn, err = store.ByLabel(db, label)
	default:
		txn, err = store.Get(id)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case label != "" && txn == nil:
		return nil, errorf("transaction with label %s does not exist", label)
	case txn == nil || !strings.EqualFold(txn.DB, db):
		return nil, errorf("transaction with id %d does not exist", id)
	}
	return &Result{ResultSet: true, Columns: txnColumns(), Rows: [][]types.Value{s.txnRow(txn)}}, nil
}

// txnFilter reads WHERE id = n or WHERE label = 'l'.
func txnFilter(w expr.Expr) (id int64, label string, ok bool) {
	b, isEq := w.(*expr.Binary)
	if !isEq || b.Op != "=" {
		return 0, "", false
	}
	ref, isRef := b.L.(*expr.ColumnRef)
	lit, isLit := b.R.(*expr.Literal)
	if !isRef || !isLit || ref.Table != "" {
		return 0, "", false
	}
	switch {
	case strings.EqualFold(ref.Name, "id") && lit.Val.Kind == types.BigInt:
		return lit.Val.I, "", true
	case strings.EqualFold(ref.Name, "label") && lit.Val.Kind == types.Varchar:
		return 0, lit.Val.S, lit.Val.S != ""
	}
	return 0, "", false
}

// txnColumns are TransProcDir.TITLE_NAMES, VARCHAR(30).
func txnColumns() []Column {
	t := types.Type{Kind: types.Varchar, Len: 30}
	var cols []Column
	for _, n := range []string{"TransactionId", "Label", "Coordinator", "TransactionStatus", "LoadJobSourceType",
		"PrepareTime", "PreCommitTime", "CommitTime", "PublishTime", "FinishTime", "Reason", "ErrorReplicasCount",
		"ListenerId", "TimeoutMs", "ErrMsg"} {
		cols = append(cols, Column{Name: n, Type: t})
	}
	return cols
}

// txnRow is TransactionUtil.getTxnStateInfo of txn; times in the session
// zone as yyyy-MM-dd HH:mm:ss, NULL when unset. A VISIBLE txn was
// committed and published when it finished.
func (s *Session) txnRow(t *labels.Txn) []types.Value {
	at := func(tm time.Time) types.Value {
		if tm.IsZero() {
			return types.NullValue
		}
		return str(tm.In(s.loc).Format(time.DateTime))
	}
	// A txn that recorded no timeout is a stream load's (loadgw records
	// none for them yet): stream_load_default_timeout_second, 259200 s.
	timeoutMs := t.TimeoutMs
	if timeoutMs <= 0 {
		timeoutMs = 259200000
	}
	commit := types.NullValue
	if t.State == labels.StateVisible {
		commit = at(t.FinishTime)
	}
	return []types.Value{
		str(strconv.FormatInt(t.ID, 10)), str(t.Label), str("FE: 127.0.0.1"), str(string(t.State)),
		str("BACKEND_STREAMING"), at(t.PrepareTime), at(t.PrecommitTime), commit, commit, at(t.FinishTime),
		str(t.Reason), str("0"), str("-1"), str(strconv.FormatInt(timeoutMs, 10)), str(""),
	}
}
