package engine

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// Schema change jobs. loadgw's column and index ALTERs change metadata
// only, as Doris's light schema change does, and Doris records each light
// schema change as a schema change job that is already FINISHED "for
// compatibility" (SchemaChangeHandler.modifyTableLightSchemaChange): its
// index is the base index (IndexId = OriginIndexId), its TransactionId -1
// and its timeout one second. loadgw records every ADD, DROP, MODIFY and
// ORDER BY of columns the same way (an index-only change makes a job
// without rows in Doris, so none is shown for it), for
// SHOW ALTER TABLE COLUMN (suites and tools poll it until the job is
// FINISHED). The log is kept in memory, the newest maxAlterJobs jobs:
// Doris too forgets finished jobs (after history_job_keep_max_second).

// Doris's titles (ShowAlterTableCommand SCHEMA_CHANGE_TITLE_NAMES and
// ROLLUP_TITLE_NAMES).
var (
	schemaChangeTitles = []string{"JobId", "TableName", "CreateTime", "FinishTime", "IndexName", "IndexId",
		"OriginIndexId", "SchemaVersion", "TransactionId", "State", "Msg", "Progress", "Timeout"}
	rollupJobTitles = []string{"JobId", "TableName", "CreateTime", "FinishTime", "BaseIndexName",
		"RollupIndexName", "RollupId", "TransactionId", "State", "Msg", "Progress", "Timeout"}
)

// The texts of ShowAlterTableCommand's WHERE checks.
const (
	errAlterWhereAnd    = "Only allow compound predicate with operator AND"
	errAlterWhereNot    = "Only operator =|>=|<=|>|<|!=|like are supported."
	errAlterWhereOp     = "The operator =|>=|<=|>|<|!= are supported."
	errAlterWhereColumn = "Only support column = xxx syntax."
	errAlterWhereName   = `Where clause : TableName = "table1" or State = "FINISHED|CANCELLED|RUNNING|PENDING|WAITING_TXN"`
	errAlterWhereTime   = `Where clause : CreateTime/FinishTime =|>=|<=|>|<|!= "2019-12-02|2019-12-02 14:54:00"`
	errAlterWhereCols   = "The columns of TableName/IndexName/CreateTime/FinishTime/State/BaseIndexName/RollupIndexName are supported."
)

// maxAlterJobs bounds the job log.
const maxAlterJobs = 10000

// alterJobTimeout is the Timeout (seconds) of a light schema change job:
// Doris creates it with a timeout of 1000 ms.
const alterJobTimeout = 1

// rewriteJobTimeout is the Timeout (seconds) of a schema change job that
// rewrites the rows: Doris's Config.alter_table_timeout_second default.
const rewriteJobTimeout = 86400 * 30

type alterJob struct {
	id            int64
	db, table     string
	at            time.Time // created
	indexID       int64
	originIndexID int64
	schemaVersion uint32
	timeout       int
	// state is the job's JobState: FINISHED, or WAITING_TXN for a
	// rewrite waiting for the loads begun before it (alter_wait.go) until
	// it is FINISHED or CANCELLED with msg.
	state string
	msg   string
	// txnID is the job's watershed txn id: -1 for a light schema change.
	txnID    int64
	finished time.Time // zero while the job runs
}

// alterJobLog is the engine's schema change job log.
type alterJobLog struct {
	mu     sync.Mutex
	nextID int64
	jobs   []*alterJob
}

// record adds a finished job for the column ALTER of table t (after the
// ALTER) at time at. A job that rewrote the rows (shadow is the id of its
// new index, 0 for a light schema change) shows it as its IndexId, as
// Doris's SchemaChangeJobV2 shows its shadow index, and Doris's timeout.
func (l *alterJobLog) record(t *catalog.Table, at time.Time, shadow, watershed int64, adjust func(j *alterJob)) *alterJob {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.nextID == 0 {
		l.nextID = at.UnixMilli() // job ids grow across restarts, as Doris's catalog ids
	}
	id := l.nextID
	l.nextID++
	j := &alterJob{id: id, db: t.DB, table: t.Name, at: at, finished: at, state: jobFinished, txnID: -1,
		indexID: t.ID, originIndexID: t.ID, schemaVersion: t.SchemaVersion, timeout: alterJobTimeout}
	if shadow != 0 {
		j.indexID, j.timeout, j.txnID = shadow, rewriteJobTimeout, watershed
	}
	if adjust != nil {
		adjust(j)
	}
	l.jobs = append(l.jobs, j)
	if len(l.jobs) > maxAlterJobs {
		// Running jobs are newer than most: keep them, drop the oldest
		// finished ones.
		drop := len(l.jobs) - maxAlterJobs
		l.jobs = slices.DeleteFunc(l.jobs, func(j *alterJob) bool {
			if drop > 0 && j.state != jobWaitingTxn {
				drop--
				return true
			}
			return false
		})
	}
	return j
}

// The states of a schema change job (AlterJobV2.JobState) loadgw shows.
const (
	jobWaitingTxn = "WAITING_TXN"
	jobFinished   = "FINISHED"
	jobCancelled  = "CANCELLED"
)

// update changes job j of the log under its lock.
func (l *alterJobLog) update(j *alterJob, fn func(j *alterJob)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fn(j)
}

// list returns copies of the jobs of db.
func (l *alterJobLog) list(db string) []alterJob {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []alterJob
	for _, j := range l.jobs {
		if j.db == db {
			out = append(out, *j)
		}
	}
	return out
}

// isSchemaChange reports whether an ALTER TABLE operation is one that
// SHOW ALTER TABLE COLUMN lists.
func isSchemaChange(op sql.AlterOp) bool {
	switch op.(type) {
	case *sql.AddColumn, *sql.AddColumns, *sql.DropColumn, *sql.ModifyColumn, *sql.ReorderColumns:
		return true
	}
	return false
}

// recordAlterJob records a finished schema change job for st when it
// changed columns; t is the table after the ALTER.
func (s *Session) recordAlterJob(st *sql.AlterTable, t *catalog.Table, shadow int64) {
	if slices.ContainsFunc(st.Ops, isSchemaChange) {
		s.e.alterJobs.record(t, s.e.clock.Now(), shadow, s.e.nextTxnID(), nil)
	}
}

// schemaHash is the hash part of a job's SchemaVersion ("version:hash");
// Doris draws it at random, loadgw derives it from the job.
func (j *alterJob) schemaHash() int32 {
	h := fnv.New32a()
	fmt.Fprintf(h, "%d/%d", j.id, j.schemaVersion)
	return int32(h.Sum32() & 0x7fffffff)
}

func (s *Session) showAlterTable(st *sql.ShowAlterTable) (*Result, error) {
	db := st.DB
	if db == "" {
		db = s.db
		if db == "" {
			return nil, errorf("No database selected")
		}
	}
	filter := map[string]expr.Expr{}
	if st.Where != nil {
		if err := alterWhere(st.Where, false, filter); err != nil {
			return nil, err
		}
	}
	// Doris checks ORDER BY against the schema change titles for every kind.
	order, err := showOrder(st.OrderBy, schemaChangeTitles)
	if err != nil {
		return nil, err
	}
	if _, ok := s.e.cat.Database(db); !ok {
		return nil, errorf("Unknown database '%s'", db)
	}
	titles := schemaChangeTitles
	var rows [][]string
	if st.Kind != "COLUMN" {
		// Rollups are metadata in loadgw: no rollup job ever runs.
		titles = rollupJobTitles
	} else {
		for _, j := range s.e.alterJobs.list(db) {
			at := j.at.In(s.loc).Format("2006-01-02 15:04:05.000")
			fin := nullString // TimeUtils.longToTimeStringWithms of -1
			if !j.finished.IsZero() {
				fin = j.finished.In(s.loc).Format("2006-01-02 15:04:05.000")
			}
			rows = append(rows, []string{strconv.FormatInt(j.id, 10), j.table, at, fin, j.table,
				strconv.FormatInt(j.indexID, 10), strconv.FormatInt(j.originIndexID, 10),
				fmt.Sprintf("%d:%d", j.schemaVersion, j.schemaHash()), strconv.FormatInt(j.txnID, 10), j.state, j.msg, nullString,
				strconv.Itoa(j.timeout)})
		}
	}
	keep := rows[:0]
	for _, r := range rows {
		ok, err := alterRowMatches(r, filter)
		if err != nil {
			return nil, err
		}
		if ok {
			keep = append(keep, r)
		}
	}
	rows = keep
	if st.OrderBy != nil {
		// Doris's ListComparator over the job's values: the ids and the
		// timeout are numbers, the rest strings.
		sortShowRows(rows, order, func(col int) bool { return col == 0 || col == 5 || col == 6 || col == 8 || col == 12 })
	}
	rows = applyShowLimit(rows, st.Limit)
	return showTextResult(titles, rows), nil
}

// alterWhere checks the WHERE clause as ShowAlterTableCommand's
// analyzeSubPredicate and collects one predicate per column (lower case).
func alterWhere(e expr.Expr, not bool, filter map[string]expr.Expr) error {
	if b, ok := e.(*expr.Binary); ok && (b.Op == "AND" || b.Op == "OR" || b.Op == "XOR") {
		if b.Op != "AND" {
			return errorf("%s", errAlterWhereAnd)
		}
		if err := alterWhere(b.L, false, filter); err != nil {
			return err
		}
		return alterWhere(b.R, false, filter)
	}
	if u, ok := e.(*expr.Unary); ok && u.Op == "NOT" {
		if b, ok := u.X.(*expr.Binary); !ok || b.Op != "=" {
			return errorf("%s", errAlterWhereNot)
		}
		return alterWhere(u.X, true, filter)
	}
	b, ok := e.(*expr.Binary)
	if !ok || !slices.Contains([]string{"=", "!=", "<", "<=", ">", ">=", "<=>"}, b.Op) {
		return errorf("%s", errAlterWhereOp)
	}
	col, ok := b.L.(*expr.ColumnRef)
	if !ok || col.Table != "" {
		return errorf("%s", errAlterWhereColumn)
	}
	lit, _ := b.R.(*expr.Literal)
	isString := lit != nil && types.IsString(lit.Val.Kind)
	key := strings.ToLower(col.Name)
	switch key {
	case "tablename", "state", "indexname", "baseindexname", "rollupindexname":
		if !isString || (b.Op != "=" && b.Op != "!=") {
			return errorf("%s", errAlterWhereName)
		}
	case "createtime", "finishtime":
		if !isString {
			return errorf("%s", errAlterWhereTime)
		}
		if _, ok := parseAlterTime(lit.Val.S); !ok {
			return errorf("date/datetime literal [%s] is invalid", lit.Val.S)
		}
	default:
		return errorf("%s", errAlterWhereCols)
	}
	if not {
		e = &expr.Unary{Op: "NOT", X: b}
	}
	filter[key] = e
	return nil
}

// parseAlterTime reads a date or date-time literal of a CreateTime or
// FinishTime predicate.
func parseAlterTime(s string) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02 15:04:05.999999", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// alterRowMatches applies the collected predicates to one row, as
// SchemaChangeProcDir.filterResultExpression: names compare exactly, times
// as date-times.
func alterRowMatches(row []string, filter map[string]expr.Expr) (bool, error) {
	for i, title := range schemaChangeTitles {
		e := filter[strings.ToLower(title)]
		if e == nil {
			continue
		}
		not := false
		if u, ok := e.(*expr.Unary); ok {
			not, e = true, u.X
		}
		b := e.(*expr.Binary)
		want := b.R.(*expr.Literal).Val.S
		var match bool
		switch {
		case title == "CreateTime" || title == "FinishTime":
			l, _ := parseAlterTime(row[i])
			r, _ := parseAlterTime(want)
			c := l.Compare(r)
			switch b.Op {
			case "=", "<=>":
				match = c == 0
			case "!=":
				match = c != 0
			case "<":
				match = c < 0
			case "<=":
				match = c <= 0
			case ">":
				match = c > 0
			case ">=":
				match = c >= 0
			}
		default:
			match = row[i] == want
			if b.Op == "!=" {
				match = !match
			}
		}
		if not {
			match = !match
		}
		if !match {
			return false, nil
		}
	}
	return true, nil
}

// cancelAlterTable is CANCEL ALTER TABLE: it cancels a schema change job
// waiting for loads (alter_wait.go); without one, it fails as Doris does.
func (s *Session) cancelAlterTable(st *sql.CancelAlterTable) (*Result, error) {
	t, err := s.ddlTable(st.Table)
	if err != nil {
		return nil, err
	}
	if st.Kind == "COLUMN" {
		if s.cancelWaiting(t) {
			return &Result{}, nil
		}
		return nil, errorf("Table[%s] is not under SCHEMA_CHANGE.", t.Name)
	}
	return nil, errorf("Table[%s] is not under ROLLUP. Use 'ALTER TABLE DROP ROLLUP' if you want to.", t.Name)
}
