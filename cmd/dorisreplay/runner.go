package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"loadgw/engine"
	"loadgw/types"
)

// runner runs one suite's statements and loads against a loadgw and
// keeps the suite's tally.
type runner struct {
	srv      *server
	sess     *engine.Session
	db       string
	out      *outFile
	src      source
	dataDir  string // the suite's data directory in the Doris checkout
	suiteDir string // the folder of the suite file
	res      *suiteResult
	lastSQL  string
	// unloaded are the tables (lower case) of stream loads that were
	// skipped: a query on them that differs depends on rows never loaded.
	unloaded map[string]bool
	// emit collects the datadriven script (-emit); inCheckQuery marks the
	// query of a qt_ check, which is not a statement of its own.
	emit         *emitter
	inCheckQuery bool
}

// skippedLoad records that a stream load into table was skipped.
func (r *runner) skippedLoad(table string) {
	if table == "" {
		return
	}
	if r.unloaded == nil {
		r.unloaded = map[string]bool{}
	}
	r.unloaded[strings.ToLower(table)] = true
}

// readsUnloaded returns a table the query names (as a whole word) into
// which a stream load was skipped, or "".
func (r *runner) readsUnloaded(query string) string {
	q := strings.ToLower(query)
	for t := range r.unloaded {
		for i := strings.Index(q, t); i >= 0; {
			end := i + len(t)
			if (i == 0 || !isWordByte(q[i-1])) && (end == len(q) || !isWordByte(q[end])) {
				return t
			}
			j := strings.Index(q[i+1:], t)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return ""
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (r *runner) pass() { r.res.Passed++ }

func (r *runner) fail(msg string) { r.failDetail(msg, msg) }

func (r *runner) failDetail(key, detail string) {
	r.res.Failed++
	r.res.Failures = append(r.res.Failures, key)
	r.res.Details = append(r.res.Details, detail)
}

func (r *runner) skip(why string) { r.skipChecks(1, why) }

func (r *runner) skipChecks(n int, why string) {
	if n <= 0 {
		return
	}
	r.res.Skipped += n
	for i := 0; i < n; i++ {
		r.res.Skips = append(r.res.Skips, why)
	}
}

func (r *runner) note(why string) { r.res.Notes = append(r.res.Notes, why) }

func (r *runner) stmtError(msg string) {
	r.res.StmtErrors++
	r.res.StmtErrorMsgs = append(r.res.StmtErrorMsgs, errorKey(msg))
	r.res.StmtErrorSQL = append(r.res.StmtErrorSQL, trunc(r.lastSQL, 200))
}

// sqlError is the exception the framework's JDBC connection raises.
func sqlError(err error) error {
	return &throwErr{&gexception{msg: "java.sql.SQLException: errCode = 2, detailMessage = " + err.Error()}}
}

// execute runs a statement in the suite's session, recovering panics
// as failures (a crash of loadgw is a failed check, not a crashed run).
func (r *runner) execute(stmt string) (res *engine.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("PANIC: %v", p)
		}
	}()
	r.lastSQL = stmt
	r.emitSQL(stmt)
	return r.sess.Execute(stmt)
}

// sqlRows is the framework's sql(): rows as lists, or [[count]] of a
// statement without a result set.
func (r *runner) sqlRows(stmt string) (value, error) {
	res, err := r.execute(stmt)
	if err != nil {
		return nil, sqlError(err)
	}
	out := &glist{}
	if !res.ResultSet {
		out.v = append(out.v, &glist{v: []value{res.Affected}})
		return out, nil
	}
	for _, row := range res.Rows {
		l := &glist{}
		for _, v := range row {
			l.v = append(l.v, groovyValue(v, res))
		}
		out.v = append(out.v, l)
	}
	return out, nil
}

func (r *runner) sqlMaps(stmt string) (value, error) {
	res, err := r.execute(stmt)
	if err != nil {
		return nil, sqlError(err)
	}
	out := &glist{}
	for _, row := range res.Rows {
		m := newMap()
		for i, v := range row {
			m.put(res.Columns[i].Name, groovyValue(v, res))
		}
		out.v = append(out.v, m)
	}
	return out, nil
}

// groovyValue is the object JDBC's getObject gives for a cell.
func groovyValue(v types.Value, res *engine.Result) value {
	switch v.Kind {
	case types.Null:
		return nil
	case types.Boolean:
		return v.I != 0
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		return v.I
	case types.Float, types.Double:
		return v.F
	}
	return types.Format(v, res.Loc)
}

// queryRows runs a qt_ query and renders its rows as the .out file does.
func (r *runner) queryRows(stmt string) ([]row, error) {
	res, err := r.execute(stmt)
	if err != nil {
		return nil, err
	}
	var out []row
	for _, vals := range res.Rows {
		rw := row{cells: make([]string, len(vals)), kinds: make([]cellKind, len(vals))}
		for i, v := range vals {
			k := v.Kind
			if i < len(res.Columns) {
				k = res.Columns[i].Type.Kind
			}
			rw.cells[i], rw.kinds[i] = outCell(v, k, res)
		}
		out = append(out, rw)
	}
	return out, nil
}

// outCell renders a cell as the regression framework writes it: through
// JDBC and CSVFormat.MYSQL (NULL as \N, BOOLEAN as true/false, DOUBLE as
// Java's Double.toString).
func outCell(v types.Value, colKind types.Kind, res *engine.Result) (string, cellKind) {
	kind := cellText
	switch colKind {
	case types.Float:
		kind = cellFloat
	case types.Double:
		kind = cellDouble
	case types.Decimal:
		kind = cellDecimal
	case types.Date, types.DateTime:
		kind = cellDateTime
	}
	switch v.Kind {
	case types.Null:
		return `\N`, kind
	case types.Boolean:
		return strconv.FormatBool(v.I != 0), kind
	case types.Float:
		return types.JavaDouble(v.F, 32), kind
	case types.Double:
		return types.JavaDouble(v.F, 64), kind
	case types.DateTime:
		return javaLocalDateTime(v.I), kind
	}
	return outEscaper.Replace(types.Format(v, res.Loc)), kind
}

var outEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\r", `\r`, "\t", "\\\t")

// javaLocalDateTime is LocalDateTime.toString of a DATETIME (microseconds
// since 1970-01-01), what JDBC's getObject gives: seconds only when not
// zero, the fraction in groups of three digits.
func javaLocalDateTime(us int64) string {
	t := time.UnixMicro(us).UTC()
	s := t.Format("2006-01-02T15:04")
	frac := t.Nanosecond()
	if t.Second() == 0 && frac == 0 {
		return s
	}
	s += fmt.Sprintf(":%02d", t.Second())
	switch {
	case frac == 0:
	case frac%1000000 == 0:
		s += fmt.Sprintf(".%03d", frac/1000000)
	case frac%1000 == 0:
		s += fmt.Sprintf(".%06d", frac/1000)
	default:
		s += fmt.Sprintf(".%09d", frac)
	}
	return s
}

// loadBody reads the data of a streamLoad block.
func (r *runner) loadBody(spec *loadSpec) ([]byte, error) {
	if spec.body != nil {
		return []byte(*spec.body), nil
	}
	f := spec.file
	switch {
	case f == "":
		return nil, fmt.Errorf("stream load without data")
	case strings.HasPrefix(f, "http://"), strings.HasPrefix(f, "https://"), strings.HasPrefix(f, "s3://"):
		return nil, fmt.Errorf("remote data file")
	case strings.HasPrefix(f, dataPathMark), strings.HasPrefix(f, suiteDirMark):
	case strings.HasPrefix(f, "/"):
		return nil, fmt.Errorf("absolute data file path")
	default:
		f = path.Join(r.dataDir, f)
	}
	b, err := r.readFile(f)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(b, []byte("version https://git-lfs")) {
		return nil, fmt.Errorf("data file is a Git LFS pointer")
	}
	return b, nil
}

// readFile reads a file of the checkout; the marks stand for the
// suite's data directory (context.dataPath) and its own directory
// (context.file.parent).
func (r *runner) readFile(f string) ([]byte, error) {
	switch {
	case strings.HasPrefix(f, dataPathMark):
		f = path.Join(r.dataDir, strings.TrimPrefix(f, dataPathMark))
	case strings.HasPrefix(f, suiteDirMark):
		f = path.Join(r.suiteDir, strings.TrimPrefix(f, suiteDirMark))
	case !strings.HasPrefix(f, "regression-test/"):
		return nil, fmt.Errorf("file outside the checkout")
	}
	b, err := r.src.read(f)
	if err != nil {
		return nil, fmt.Errorf("data file not in the checkout")
	}
	return b, nil
}

// streamLoad sends the load to loadgw's HTTP API as the framework does
// (Basic auth root, the set headers) and returns the answer's text.
func (r *runner) streamLoad(spec *loadSpec, body []byte) (string, error) {
	url := fmt.Sprintf("%s/api/%s/%s/_stream_load", r.srv.url, spec.db, spec.table)
	if spec.twoPC {
		url = fmt.Sprintf("%s/api/%s/_stream_load_2pc", r.srv.url, spec.db)
	}
	req, err := http.NewRequest(http.MethodPut, url, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.SetBasicAuth("root", "")
	req.Header.Set("Expect", "100-continue")
	for _, h := range spec.headers {
		req.Header.Set(h[0], h[1])
	}
	client := &http.Client{Timeout: 5 * time.Minute}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("HTTP %d: %s", resp.StatusCode, trunc(string(b), 200))
	}
	return string(b), nil
}

var (
	reQuoted = regexp.MustCompile("`[^`]*`|'[^']*'")
	reNum    = regexp.MustCompile(`\b\d+\b`)
	reLabel  = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f-]{27}`)
)

// errorKey turns a failure text into the key failures are counted by:
// the message without quoted names and numbers.
func errorKey(msg string) string {
	msg = strings.TrimPrefix(msg, "java.sql.SQLException: ")
	msg = strings.TrimPrefix(msg, "errCode = 2, detailMessage = ")
	msg = reLabel.ReplaceAllString(msg, "<uuid>")
	msg = reQuoted.ReplaceAllStringFunc(msg, func(s string) string {
		if len(s) > 40 {
			return s[:1] + "…" + s[:1]
		}
		return s
	})
	msg = reNum.ReplaceAllString(msg, "N")
	return trunc(msg, 140)
}
