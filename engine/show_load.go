package engine

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"loadgw/expr"
	"loadgw/loadhist"
	"loadgw/sql"
	"loadgw/types"
)

// Doris's column titles (ShowLoadCommand LOAD_TITLE_NAMES and
// STREAM_LOAD_TITLE_NAMES); every column is VARCHAR(128).
var (
	loadTitles = []string{"JobId", "Label", "State", "Progress", "Type", "EtlInfo", "TaskInfo", "ErrorMsg", "CreateTime",
		"EtlStartTime", "EtlFinishTime", "LoadStartTime", "LoadFinishTime", "URL", "JobDetails", "TransactionId",
		"ErrorTablets", "User", "Comment", "FirstErrorMsg"}
	streamLoadTitles = []string{"Label", "Db", "Table", "ClientIp", "Status", "Message", "Url", "TotalRows",
		"LoadedRows", "FilteredRows", "UnselectedRows", "LoadBytes", "StartTime", "FinishTime", "User", "Comment",
		"FirstErrorMsg"}
)

// The texts of ShowLoadCommand's checks.
const (
	errShowLoadWhere = `Where clause should looks like: LABEL = "your_load_label", or LABEL LIKE "matcher",  or STATE = "PENDING|ETL|LOADING|FINISHED|CANCELLED",  or compound predicate with operator AND`
	errShowLoadAnd   = "Only allow compound predicate with operator AND"
	errShowLoadSame  = "column names on both sides of operator AND should be different"
)

// nullString is Doris's FeConstants.null_string, shown for an absent value.
const nullString = `\N`

// showLoadFilter is the WHERE clause of SHOW [STREAM] LOAD, checked as
// Doris's ShowLoadCommand.validate does.
type showLoadFilter struct {
	label      string
	labelExact bool
	state      string
}

// showLoad runs SHOW STREAM LOAD and SHOW LOAD over the load history: the
// stream loads loadgw ran. SHOW LOAD shows each stream load that began a
// transaction as a job of type STREAM_LOAD, FINISHED or CANCELLED.
func (s *Session) showLoad(st *sql.ShowLoad) (*Result, error) {
	db := st.DB
	if db == "" {
		db = s.db
		if db == "" {
			return nil, errorf("No database selected")
		}
	}
	var f showLoadFilter
	if st.Where != nil {
		if err := f.parse(st.Where, st.Stream); err != nil {
			return nil, err
		}
	}
	titles := loadTitles
	if st.Stream {
		titles = streamLoadTitles
	}
	order, err := showOrder(st.OrderBy, titles)
	if err != nil {
		return nil, err
	}
	if _, ok := s.e.cat.Database(db); !ok && !strings.EqualFold(db, "information_schema") {
		return nil, errorf("Unknown database '%s'", db)
	}
	var recs []loadhist.Record
	if h := s.e.ops.history.Load(); h != nil {
		recs = h.List(f.historyFilter(db, st.Stream))
	}
	rows := make([][]string, 0, len(recs))
	for i := range recs {
		if st.Stream {
			rows = append(rows, s.streamLoadRow(&recs[i]))
		} else if recs[i].TxnID >= 0 {
			rows = append(rows, s.loadJobRow(&recs[i]))
		}
	}
	// SHOW STREAM LOAD's values are strings (its counters compare as
	// text); SHOW LOAD's JobId and TransactionId are numbers.
	numericIDs := !st.Stream
	sortShowRows(rows, order, func(col int) bool { return numericIDs && (col == 0 || col == 15) })
	rows = applyShowLimit(rows, st.Limit)
	return showTextResult(titles, rows), nil
}

// parse checks the WHERE clause: LABEL = 'x', LABEL LIKE 'x', STATE = 'x',
// or two of them (different columns) joined by AND.
func (f *showLoadFilter) parse(e expr.Expr, stream bool) error {
	if b, ok := e.(*expr.Binary); ok && b.Op != "=" {
		if b.Op != "AND" {
			return errorf("%s", errShowLoadAnd)
		}
		l, r := predicateColumn(b.L), predicateColumn(b.R)
		if l != "" && l == r {
			return errorf("%s", errShowLoadSame)
		}
		if !f.sub(b.L, stream) || !f.sub(b.R, stream) {
			return errorf("%s", errShowLoadWhere)
		}
		return nil
	}
	if !f.sub(e, stream) {
		return errorf("%s", errShowLoadWhere)
	}
	return nil
}

// predicateColumn is the column on the left of a = or LIKE, or "".
func predicateColumn(e expr.Expr) string {
	var l expr.Expr
	switch p := e.(type) {
	case *expr.Binary:
		l = p.L
	case *expr.Like:
		l = p.X
	}
	if c, ok := l.(*expr.ColumnRef); ok {
		return c.Name
	}
	return ""
}

// sub takes one predicate; it reports whether Doris accepts it.
func (f *showLoadFilter) sub(e expr.Expr, stream bool) bool {
	var left, right expr.Expr
	like := false
	switch p := e.(type) {
	case *expr.Binary:
		if p.Op != "=" {
			return false
		}
		left, right = p.L, p.R
	case *expr.Like:
		if p.Not || p.Regexp {
			return false
		}
		left, right, like = p.X, p.Pattern, true
	default:
		return false
	}
	col, ok := left.(*expr.ColumnRef)
	if !ok || col.Table != "" {
		return false
	}
	lit, ok := right.(*expr.Literal)
	if !ok || !types.IsString(lit.Val.Kind) || lit.Val.S == "" {
		return false
	}
	v := lit.Val.S
	switch {
	case strings.EqualFold(col.Name, "label"):
		f.labelExact = !like
		if like && !strings.Contains(v, "%") {
			v = "%" + v + "%"
		}
		f.label = v
	case strings.EqualFold(col.Name, "state") && !like:
		f.state = strings.ToUpper(v)
		valid := []string{"UNKNOWN", "PENDING", "ETL", "LOADING", "COMMITTED", "FINISHED", "CANCELLED", "RETRY"}
		if stream {
			valid = []string{"SUCCESS", "FAIL"}
		}
		return slices.Contains(valid, f.state)
	default:
		return false
	}
	return true
}

// historyFilter selects the records of db the filter accepts.
func (f *showLoadFilter) historyFilter(db string, stream bool) loadhist.Filter {
	hf := loadhist.Filter{DB: db}
	switch {
	case f.label != "" && f.labelExact:
		l := f.label
		hf.Label = func(s string) bool { return s == l }
	case f.label != "":
		hf.Label = expr.LikeMatch(f.label)
	}
	switch {
	case stream:
		hf.Status = f.state // SUCCESS and FAIL compare without case
	case f.state == "FINISHED":
		hf.Status = loadhist.StatusSuccess
	case f.state == "CANCELLED":
		hf.Status = loadhist.StatusFail
	case f.state != "":
		hf.Status = "-" // no stream load is in another state
	}
	return hf
}

// streamLoadRow is a record as Doris's StreamLoadRecord.getStreamLoadInfo.
func (s *Session) streamLoadRow(r *loadhist.Record) []string {
	url, first := r.ErrorURL, r.FirstErrorMsg
	if url == "" {
		url = "N/A"
	}
	if first == "" {
		first = "N/A"
	}
	ms := "2006-01-02 15:04:05.000"
	return []string{r.Label, r.DB, r.Table, r.ClientIP, r.Status, r.Message, url,
		itoa64(r.TotalRows), itoa64(r.LoadedRows), itoa64(r.FilteredRows), itoa64(r.UnselectedRows), itoa64(r.LoadBytes),
		s.showTime(r.StartMs, ms), s.showTime(r.FinishMs, ms), r.User, r.Comment, first}
}

// loadJobRow is a record as Doris's LoadJob.getShowInfo.
func (s *Session) loadJobRow(r *loadhist.Record) []string {
	state, errMsg := "FINISHED", nullString
	if r.Status != loadhist.StatusSuccess {
		state = "CANCELLED"
		kind := "LOAD_RUN_FAIL"
		if r.FilteredRows > 0 && strings.Contains(r.Message, "too many filtered rows") {
			kind = "ETL_QUALITY_UNSATISFIED"
		}
		errMsg = "type:" + kind + "; msg:" + r.Message
	}
	etl := "unselected.rows=" + itoa64(r.UnselectedRows) + "; dpp.abnorm.ALL=" + itoa64(r.FilteredRows) +
		"; dpp.norm.ALL=" + itoa64(r.LoadedRows)
	task := "cluster:N/A; timeout(s):" + itoa64(r.TimeoutSec) + "; max_filter_ratio:" + ratioText(r.MaxFilterRatio)
	details, _ := json.Marshal(struct {
		ScannedRows int64   `json:"ScannedRows"`
		LoadBytes   int64   `json:"LoadBytes"`
		FileNumber  int     `json:"FileNumber"`
		FileSize    int     `json:"FileSize"`
		TaskNumber  int     `json:"TaskNumber"`
		Unfinished  []int64 `json:"Unfinished backends"`
		AllBackends []int64 `json:"All backends"`
	}{ScannedRows: r.TotalRows, LoadBytes: r.LoadBytes, TaskNumber: 1, Unfinished: []int64{}, AllBackends: []int64{}})
	url := r.ErrorURL
	if url == "" {
		url = nullString
	}
	sec := "2006-01-02 15:04:05"
	start, finish := s.showTime(r.StartMs, sec), s.showTime(r.FinishMs, sec)
	return []string{itoa64(r.TxnID), r.Label, state, "Unknown id: " + itoa64(r.TxnID), "STREAM_LOAD", etl, task, errMsg,
		start, start, start, start, finish, url, string(details), itoa64(r.TxnID), "{}", r.User, r.Comment, r.FirstErrorMsg}
}

// showTime formats Unix milliseconds in the session's zone, \N for none.
func (s *Session) showTime(ms int64, layout string) string {
	if ms <= 0 {
		return nullString
	}
	return time.UnixMilli(ms).In(s.loc).Format(layout)
}

func itoa64(v int64) string { return strconv.FormatInt(v, 10) }

// ratioText spells a stored max_filter_ratio as Java's Double.toString.
func ratioText(v string) string {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return "0.0"
	}
	return types.JavaDouble(f, 64)
}

// showOrder resolves ORDER BY titles as ShowCommand.getOrderByPairs.
type showOrderKey struct {
	col  int
	desc bool
}

func showOrder(items []sql.OrderItem, titles []string) ([]showOrderKey, error) {
	var keys []showOrderKey
	for _, it := range items {
		c, ok := it.Expr.(*expr.ColumnRef)
		if !ok {
			return nil, errorf("Should order by column")
		}
		idx := -1
		for i, t := range titles {
			if strings.EqualFold(t, c.Name) {
				idx = i
			}
		}
		if idx < 0 {
			return nil, errorf("Title name[%s] does not exist", c.Name)
		}
		keys = append(keys, showOrderKey{idx, it.Desc})
	}
	if keys == nil {
		keys = []showOrderKey{{0, false}} // Doris: by the first column
	}
	return keys, nil
}

// sortShowRows sorts as Doris's ListComparator: a column for which
// numeric reports true compares as a number, the others as text.
func sortShowRows(rows [][]string, keys []showOrderKey, numeric func(col int) bool) {
	slices.SortStableFunc(rows, func(a, b []string) int {
		for _, k := range keys {
			c := strings.Compare(a[k.col], b[k.col])
			if numeric(k.col) {
				x, _ := strconv.ParseInt(a[k.col], 10, 64)
				y, _ := strconv.ParseInt(b[k.col], 10, 64)
				c = cmp.Compare(x, y)
			}
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
}

// applyShowLimit applies LIMIT/OFFSET as ShowCommand.applyLimit.
func applyShowLimit(rows [][]string, l *sql.Limit) [][]string {
	if l == nil {
		return rows
	}
	if l.Offset >= int64(len(rows)) {
		return nil
	}
	rows = rows[l.Offset:]
	if l.Count < int64(len(rows)) {
		rows = rows[:l.Count]
	}
	return rows
}

// showTextResult is a SHOW result of VARCHAR(128) columns named titles
// holding rows, as Doris's ShowResultSet of strings.
func showTextResult(titles []string, rows [][]string) *Result {
	res := &Result{ResultSet: true}
	for _, t := range titles {
		res.Columns = append(res.Columns, Column{Name: t, Type: types.Type{Kind: types.Varchar, Len: 128}})
	}
	for _, r := range rows {
		vals := make([]types.Value, len(r))
		for i, v := range r {
			vals[i] = str(v)
		}
		res.Rows = append(res.Rows, vals)
	}
	return res
}
