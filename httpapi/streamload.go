package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/trace"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"go.uber.org/zap"

	"loadgw/catalog"
	"loadgw/engine"
	"loadgw/errorlog"
	"loadgw/labels"
	"loadgw/load"
	"loadgw/loadtxn"
	"loadgw/mapping"
	"loadgw/types"
)

// LoadOptions bound what one stream load may use. The zero value is the
// default.
type LoadOptions struct {
	// MaxBodyBytes bounds the request body (Doris's streaming_load_max_mb).
	// The default value is 100 GiB.
	MaxBodyBytes int64
	// MaxJSONBodyBytes bounds a JSON body that is not read by line, which is
	// parsed as one document (streaming_load_json_max_mb). The default value
	// is 100 MiB.
	MaxJSONBodyBytes int64
	// MaxDecompressedBytes bounds the decompressed body, so a small
	// compressed body cannot expand without limit. The default value is
	// 100 GiB.
	MaxDecompressedBytes int64
	// MaxLineBytes bounds one CSV or JSON line. The default value is 64 MiB.
	MaxLineBytes int
	// MaxConcurrent is how many loads read their bodies at once; more wait
	// for a slot (see SlotWait). With StageMemBytes it bounds the memory of
	// all loads. The default value is 8.
	MaxConcurrent int
	// SlotWait bounds how long a load waits for one of the MaxConcurrent
	// slots (and within its timeout) before it fails with TOO_MANY_TASKS,
	// so slow bodies holding every slot cannot park further loads for
	// their whole timeout. The default value is 60 s.
	SlotWait time.Duration
	// DrainBytes and DrainTimeout bound what is read and discarded of a
	// body after a load answered before reading it all (a refusal such as
	// Label Already Exists, a bad header, a failure midway). Doris's BE
	// reads such a body to its end, and clients that send the body without
	// waiting for "100 Continue" (Python's http.client, Go clients without
	// ExpectContinueTimeout) only read the answer once they sent it all:
	// closing at once gives them a reset instead of the answer, and some
	// retry under a new label. Past either bound the connection is closed.
	// A body declared longer than DrainBytes is not drained at all.
	// The default values are 1 GiB and 60 s.
	DrainBytes   int64
	DrainTimeout time.Duration
	// StageMemBytes is how many bytes of rows a load keeps in memory before
	// it spills them to the store's staging range; it bounds a load's memory.
	// The default value is loadtxn.DefaultStageMemBytes (96 MiB).
	StageMemBytes int
}

func (o *LoadOptions) ensureDefaults() {
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 100 << 30
	}
	if o.MaxJSONBodyBytes <= 0 {
		o.MaxJSONBodyBytes = 100 << 20
	}
	if o.MaxDecompressedBytes <= 0 {
		o.MaxDecompressedBytes = 100 << 30
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = 64 << 20
	}
	if o.MaxConcurrent <= 0 {
		o.MaxConcurrent = 8
	}
	if o.SlotWait <= 0 {
		o.SlotWait = 60 * time.Second
	}
	if o.DrainBytes <= 0 {
		o.DrainBytes = 1 << 30
	}
	if o.DrainTimeout <= 0 {
		o.DrainTimeout = 60 * time.Second
	}
	if o.StageMemBytes <= 0 {
		o.StageMemBytes = loadtxn.DefaultStageMemBytes
	}
}

// streamLoad is the state of one PUT /api/{db}/{table}/_stream_load.
type streamLoad struct {
	s     *Server
	w     http.ResponseWriter
	r     *http.Request
	resp  load.Response
	start time.Time
	txn   *loadtxn.Txn // nil when there is nothing to abort
	errs  *errorlog.Writer
	// What the load history and the metrics record (observe.go).
	clockStart         time.Time
	db, tableName      string
	table              *catalog.Table // nil until found
	params             *load.Params
	readDur, commitDur time.Duration
}

// handleStreamLoad runs one stream load. Every outcome is HTTP 200 with the
// JSON of Doris's StreamLoadContext; nothing is read from the body before
// auth, table, headers and label are checked.
func (s *Server) handleStreamLoad(w http.ResponseWriter, r *http.Request) {
	sl := &streamLoad{s: s, w: w, r: r, start: time.Now(), clockStart: s.engine.Clock().Now()}
	body := &eofBody{ReadCloser: r.Body}
	r.Body = body
	sl.resp.TxnID = -1
	sl.resp.TwoPhaseCommit = "false"
	if err := sl.runGuarded(); err != nil {
		sl.fail(err)
	}
	sl.resp.LoadTimeMs = time.Since(sl.start).Milliseconds()
	s.finishLoad(sl)
	rc := http.NewResponseController(w)
	early := r.ContentLength != 0 && !body.eof
	if early {
		// The load ended before its body did (an error, a refusal before
		// reading): answer now, then drain the rest within bounds and
		// close the connection.
		w.Header().Set("Connection", "close")
	}
	_ = rc.SetReadDeadline(time.Time{})
	answer := sl.resp.JSON()
	w.Header().Set("Content-Type", "application/json")
	// With its length the answer is complete for the client once flushed,
	// while the body is still drained.
	w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(answer)
	if early {
		_ = rc.Flush()
		s.drain(rc, r, body)
	}
}

// runGuarded runs the load and turns a panic into an internal error, so the
// transaction is aborted and the client gets the load's answer.
func (sl *streamLoad) runGuarded() (err error) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			err = internalLoadError(sl.s.logPanic(sl.r, p))
		}
	}()
	return sl.run()
}

// drain reads and discards what is left of an answered load's body, up to
// LoadOptions.DrainBytes within DrainTimeout, so a client that sends its
// whole body before reading the answer gets to read it. The answer must be
// written and the response marked "Connection: close" first: net/http then
// sends no "100 Continue" to a client that waits for one, and closes the
// connection after the handler; a body past the bounds is cut off there.
func (s *Server) drain(rc *http.ResponseController, r *http.Request, body *eofBody) {
	opts := s.opts.Load
	if r.ContentLength > 0 && r.ContentLength-body.n > opts.DrainBytes {
		_ = rc.SetReadDeadline(time.Now())
		return
	}
	_ = rc.SetReadDeadline(time.Now().Add(opts.DrainTimeout))
	_, _ = io.Copy(io.Discard, io.LimitReader(body, opts.DrainBytes))
	if !body.eof {
		_ = rc.SetReadDeadline(time.Now()) // net/http reads no further
	}
}

func (sl *streamLoad) fail(err error) {
	var le *labels.LabelExistsError
	if errors.As(err, &le) {
		sl.resp.Status = load.StatusLabelExists
		sl.resp.ExistingJobStatus = le.ExistingJobStatus()
		sl.resp.Message = "[" + load.CodeLabelAlreadyExists + "]TStatus: errCode = 2, detailMessage = " + le.Error()
		return
	}
	if sl.txn != nil {
		sl.txn.Abort(load.AsError(err).Error())
	}
	sl.resp.Fail(err)
	if sl.errs != nil && sl.errs.Rows() > 0 {
		sl.resp.FirstErrorMsg = sl.errs.FirstErrorMsg()
	}
	if !load.AsError(err).Client {
		sl.s.opts.Logger.Warn("stream load failed", zap.String("label", sl.resp.Label), zap.Error(err))
	}
}

func (sl *streamLoad) run() error {
	r := sl.r
	sl.resp.Comment, _ = load.Header(r.Header, "comment")
	// Doris's BE names the load first: the label header, else a UUID; then
	// it decides the group_commit header.
	sl.resp.Label = labels.NewLabel()
	if v, ok := load.Header(r.Header, "label"); ok && v != "" {
		sl.resp.Label = v
	}
	chunked := len(r.TransferEncoding) > 0 && r.TransferEncoding[0] == "chunked"
	gc, err := load.GroupCommitOf(r.Header, chunked, r.ContentLength)
	if err != nil {
		return err
	}
	if gc.DropLabel {
		sl.resp.Label = labels.NewLabel()
	}
	if err := sl.s.checkLoadAuth(r); err != nil {
		return err
	}
	db, name := chi.URLParam(r, "db"), chi.URLParam(r, "table")
	sl.db, sl.tableName = db, name
	t, err := sl.s.engine.Catalog().Table(db, name)
	if err == nil {
		sl.table = t
	}
	switch err {
	case nil:
	case catalog.ErrUnknownDB:
		return &load.Error{Code: load.CodeNotFound, Client: true, Msg: "TStatus: errCode = 7, detailMessage = unknown database, database=" + db}
	default:
		return &load.Error{Code: load.CodeNotFound, Client: true, Msg: "TStatus: errCode = 7, detailMessage = table not found, tableName=" + name}
	}
	if err := checkFraming(r); err != nil {
		return err
	}
	if max := sl.s.opts.Load.MaxBodyBytes; r.ContentLength > max {
		// A declared size is refused before the transaction begins; a
		// chunked body is cut off by LimitBody while it is read.
		return &load.Error{Code: load.CodeE217, Client: true, Err: load.ErrBodyTooLarge,
			Msg: fmt.Sprintf("body size %d exceed BE's conf `streaming_load_max_mb` %d. increase it if you are sure this load is reasonable", r.ContentLength, max>>20)}
	}
	p, err := load.ParseBegin(r.Header)
	if err != nil {
		return err
	}
	p.SetGroupCommit(gc)
	sl.params = p
	if p.GroupCommitActive() {
		sl.resp.Label, sl.resp.GroupCommit = p.Label, true
		if t.Properties["light_schema_change"] == "false" { // Doris's FE, before any transaction
			return &load.Error{Code: load.CodeAnalysisError, Client: true, Msg: "TStatus: errCode = 2, detailMessage = table light_schema_change is false, can't do stream load with group commit mode"}
		}
	}
	if p.TwoPhaseCommit {
		sl.resp.TwoPhaseCommit = "true"
	}
	if p.Label == "" {
		p.Label = sl.resp.Label
	}
	if err := labels.ValidateLabel(p.Label); err != nil {
		return &load.Error{Code: load.CodeAnalysisError, Client: true, Msg: "TStatus: errCode = 2, detailMessage = " + err.Error()}
	}
	begin := time.Now()
	txn, err := sl.s.opts.Loads.Begin(db, p.Label, t)
	if err != nil {
		return err
	}
	sl.txn = txn
	sl.resp.TxnID = txn.ID()
	sl.resp.BeginTxnTimeMs = time.Since(begin).Milliseconds()
	put := time.Now()
	if err := p.ParsePut(r.Header); err != nil {
		return err
	}
	if err := checkTableSupport(t, p); err != nil {
		return err
	}
	sl.resp.StreamLoadPutTimeMs = time.Since(put).Milliseconds()
	return sl.readAndCommit(db, t, p)
}

// readAndCommit reads the body, applies the filter ratio and commits (or
// pre-commits) the rows with the transaction record in one batch.
func (sl *streamLoad) readAndCommit(db string, t *catalog.Table, p *load.Params) error {
	opts := sl.s.opts.Load
	tz := p.TimeZone
	if tz == "" {
		tz = sl.s.engine.TimeZone()
	}
	loc, err := engine.LoadZone(tz)
	if err != nil {
		return &load.Error{Code: load.CodeAnalysisError, Client: true, Msg: "TStatus: errCode = 2, detailMessage = " + err.Error()}
	}
	// The load's one deadline bounds the work and, as a read deadline, a
	// body that stops arriving (also while a decompressor reads its header).
	deadline := sl.start.Add(p.Timeout)
	ctx, cancel := context.WithDeadline(sl.r.Context(), deadline)
	defer cancel()
	_ = http.NewResponseController(sl.w).SetReadDeadline(deadline)
	counter := &countingReader{r: load.LimitBody(sl.r.Body, opts.MaxBodyBytes)}
	body, err := load.Decompress(counter, p.CompressType, opts.MaxDecompressedBytes)
	if err != nil {
		return load.BodyError(ctx, p.Timeout, err)
	}
	if err := sl.s.takeSlot(ctx); err != nil {
		return err
	}
	// The slot bounds the memory of the loads reading their bodies; a
	// load whose rows are in a commit group no longer holds them (the
	// Writer bounds the groups' batches) and frees its slot while it
	// waits for the group's synced write.
	holding := true
	freeSlot := func() {
		if holding {
			holding = false
			<-sl.s.loadSlots
		}
	}
	defer freeSlot()
	sl.errs = sl.s.opts.ErrorLog.NewWriter(db, p.Label, p.MaxFilterRatio <= 0)
	so := loadtxn.StageOptions{MemBytes: opts.StageMemBytes, Queued: freeSlot}
	if p.UpdateMode != load.ModeUpsert {
		so.Partial = &loadtxn.Partial{Flexible: p.UpdateMode == load.ModeFlexible, NewKeyError: p.NewKeyBehavior == "ERROR", Loc: loc}
	}
	loadNow := sl.txn.Stage(so)
	defer sl.txn.Discard() // a failed load frees its rows before its slot
	read := time.Now()
	reg := trace.StartRegion(ctx, "load: receive")
	out, err := load.Read(ctx, load.Input{
		AutoInc: func(col int) (types.Value, error) { return sl.s.engine.AutoIncValue(t, col) },
		Table:   t, Params: p, Body: body, Now: loadNow, Loc: loc,
		Errors: sl.errs, Sink: sl.txn.Add, MaxLineBytes: opts.MaxLineBytes, MaxJSONBodyBytes: opts.MaxJSONBodyBytes,
		SpillDir: sl.s.engine.SpillDir(),
	})
	reg.End()
	sl.readDur = time.Since(read)
	sl.resp.ReadDataTimeMs = sl.readDur.Milliseconds()
	sl.resp.ReceiveDataTimeMs = sl.resp.ReadDataTimeMs
	sl.resp.LoadBytes = counter.n
	if out != nil {
		sl.resp.NumberTotalRows, sl.resp.NumberFilteredRows, sl.resp.NumberUnselectedRows = out.Total, out.Filtered, out.Unselected
		sl.resp.NumberLoadedRows = out.Loaded()
	}
	if name, cerr := sl.errs.Close(); cerr == nil && name != "" {
		sl.resp.ErrorURL = errorlog.URL(sl.r.Host, name)
	}
	if err != nil {
		return err
	}
	if err := load.CheckRatio(out, p.MaxFilterRatio); err != nil {
		return err
	}
	write := time.Now()
	reg = trace.StartRegion(ctx, "load: commit")
	if p.TwoPhaseCommit {
		err = sl.txn.Precommit()
	} else {
		err = sl.txn.Commit()
	}
	reg.End()
	sl.commitDur = time.Since(write)
	sl.resp.WriteDataTimeMs = sl.commitDur.Milliseconds()
	sl.resp.CommitAndPublishTimeMs = sl.resp.WriteDataTimeMs
	if err != nil {
		return err
	}
	sl.txn = nil // finished: nothing to abort
	sl.resp.Status = load.StatusSuccess
	sl.resp.Message = "OK"
	return nil
}

// takeSlot waits for one of the load slots, at most LoadOptions.SlotWait and
// within the load's deadline.
func (s *Server) takeSlot(ctx context.Context) error {
	select {
	case s.loadSlots <- struct{}{}:
		return nil
	default:
	}
	opts := s.opts.Load
	wait := time.NewTimer(opts.SlotWait)
	defer wait.Stop()
	select {
	case s.loadSlots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return &load.Error{Code: load.CodeTimeout, Msg: "load timeout while waiting for one of the " +
			strconv.Itoa(opts.MaxConcurrent) + " load slots (--max-concurrent-loads)", Err: ctx.Err()}
	case <-wait.C:
		return &load.Error{Code: codeTooManyTasks, Msg: fmt.Sprintf("all %d load slots (--max-concurrent-loads) stayed busy for %v (--load-slot-wait); retry the load later",
			opts.MaxConcurrent, opts.SlotWait)}
	}
}

// codeTooManyTasks is Doris's TStatusCode TOO_MANY_TASKS, for a load that
// found no free load slot.
const codeTooManyTasks = "TOO_MANY_TASKS"

// checkTableSupport rejects what the table model or loadgw cannot load, with
// the texts of Doris's BE header checks and then its FE planner.
func checkTableSupport(t *catalog.Table, p *load.Params) error {
	if err := p.CheckPartial(); err != nil {
		return err
	}
	fe := func(msg string) error {
		return &load.Error{Code: load.CodeAnalysisError, Client: true, Msg: "TStatus: errCode = 2, detailMessage = " + msg}
	}
	if p.MergeType != "APPEND" && t.Keys != catalog.UniqueKeys {
		return fe("load by MERGE or DELETE is only supported in unique tables.")
	}
	mode, _ := mapping.ParseUpdateMode(p.UpdateMode)
	if err := mapping.CheckPartial(t, mode); err != nil {
		return fe(err.Error())
	}
	return nil
}

// checkFraming requires Content-Length or chunked encoding, not both, as
// Doris's BE does.
func checkFraming(r *http.Request) error {
	_, hasLen := r.Header["Content-Length"]
	chunked := len(r.TransferEncoding) > 0 && r.TransferEncoding[0] == "chunked"
	switch {
	case chunked && hasLen:
		return &load.Error{Code: load.CodeInvalidArgument, Client: true, Msg: "please do not set both content_length and transfer-encoding"}
	case !chunked && !hasLen && r.ContentLength <= 0:
		return &load.Error{Code: load.CodeInvalidArgument, Client: true, Msg: "content_length is empty and transfer-encoding!=chunked, please set content_length or transfer-encoding=chunked"}
	}
	return nil
}

// checkLoadAuth checks Basic auth with the BE's texts.
func (s *Server) checkLoadAuth(r *http.Request) error {
	user, pass, ok := basicAuth(r)
	if !ok {
		return &load.Error{Code: load.CodeNotAuthorized, Client: true, Msg: "no valid Basic authorization"}
	}
	if user != s.opts.User || pass != s.opts.Password {
		using := "NO"
		if pass != "" {
			using = "YES"
		}
		return &load.Error{Code: load.CodeNotAuthorized, Client: true,
			Msg: "Access denied for user '" + user + "' (using password: " + using + ")"}
	}
	return nil
}

// countingReader counts the body bytes received (LoadBytes).

// eofBody remembers how much of a request body was read and whether it was
// read to its end.
type eofBody struct {
	io.ReadCloser
	n   int64
	eof bool
}

func (b *eofBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

type countingReader struct {
	r interface{ Read([]byte) (int, error) }
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
