package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"loadgw/engine"
	"loadgw/types"
)

// The bounds of the change feed's parameters.
const (
	defaultFeedWait    = 30 * time.Second
	maxFeedWait        = 60 * time.Second
	defaultFeedRows    = 10000
	maxFeedRows        = 1_000_000
	feedPollInterval   = 10 * time.Millisecond
	maxCommitBodyBytes = 4096
)

// handleChanges is GET /api/{db}/{stream}/_changes?wait=30s&max_rows=N:
// the changes of a Table Stream after its offsets as NDJSON, one object
// per change, then a checkpoint line. When nothing is pending it waits
// (long poll) up to wait for a commit. It never moves the offsets: the
// consumer POSTs the checkpoint to _commit once it processed the rows.
func (s *Server) handleChanges(w http.ResponseWriter, r *http.Request) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
	wait, rows, err := feedParams(r)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, restResponse{Msg: "Bad Request", Code: 1, Data: err.Error()})
		return
	}
	db, name := chi.URLParam(r, "db"), chi.URLParam(r, "stream")
	deadline := time.Now().Add(wait)
	var f *engine.ChangeFeed
	for {
		seen := s.engine.Published()
		if f, err = s.engine.OpenChanges(db, name, rows); err != nil {
			writeJSON(w, http.StatusOK, restResponse{Msg: "Error", Code: 1, Data: err.Error()})
			return
		}
		if !f.Empty || !waitCommit(r.Context(), s.engine, seen, deadline) {
			break
		}
		f.Close()
	}
	defer f.Close()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("X-Loadgw-Checkpoint", strconv.FormatUint(f.Checkpoint, 10))
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(w, 64<<10)
	n, err := writeChanges(bw, f)
	if err != nil {
		// The answer began: a client sees a body without its checkpoint
		// line and must not commit.
		s.opts.Logger.Sugar().Warnw("change feed cut off", "db", db, "stream", name, "error", err)
		_ = bw.Flush()
		panic(http.ErrAbortHandler)
	}
	var b bytes.Buffer
	b.WriteString(`{"checkpoint":`)
	b.WriteString(strconv.FormatUint(f.Checkpoint, 10))
	b.WriteString(`,"rows":`)
	b.WriteString(strconv.Itoa(n))
	b.WriteString(`,"more":`)
	b.WriteString(strconv.FormatBool(f.More))
	b.WriteString("}\n")
	_, _ = bw.Write(b.Bytes())
	_ = bw.Flush()
}

// feedParams reads wait (a Go duration or seconds, at most 60 s) and
// max_rows (at most 1,000,000).
func feedParams(r *http.Request) (time.Duration, int, error) {
	q := r.URL.Query()
	wait, rows := defaultFeedWait, defaultFeedRows
	if v := q.Get("wait"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			secs, err2 := strconv.Atoi(v)
			if err2 != nil {
				return 0, 0, errorText("wait must be a duration like 30s: %s", v)
			}
			d = time.Duration(secs) * time.Second
		}
		if d < 0 || d > maxFeedWait {
			return 0, 0, errorText("wait must be between 0s and %s: %s", maxFeedWait, v)
		}
		wait = d
	}
	if v := q.Get("max_rows"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxFeedRows {
			return 0, 0, errorText("max_rows must be between 1 and %d: %s", maxFeedRows, v)
		}
		rows = n
	}
	return wait, rows, nil
}

// waitCommit waits until a commit newer than seen is published, the
// deadline passes or the client leaves; it reports whether to look again.
func waitCommit(ctx context.Context, e *engine.Engine, seen uint64, deadline time.Time) bool {
	t := time.NewTicker(feedPollInterval)
	defer t.Stop()
	for {
		if e.Published() != seen {
			return true
		}
		if !time.Now().Before(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
	}
}

// writeChanges writes one NDJSON object per change:
//
//	{"op":"UPDATE_AFTER","tso":T,"lsn":L,"row":{...},"before":{...}}
//
// An UPDATE_BEFORE row is folded into the UPDATE_AFTER that follows it as
// its "before"; a DELETE carries the deleted values in "row" and "before".
func writeChanges(w io.Writer, f *engine.ChangeFeed) (int, error) {
	nb := len(f.Columns) - 3
	names := make([][]byte, nb)
	for i, c := range f.Columns[:nb] {
		k, _ := json.Marshal(c.Name)
		names[i] = append(k, ':')
	}
	var line, before bytes.Buffer
	n := 0
	err := f.Read(func(row []types.Value) (bool, error) {
		op := row[nb].S
		if op == "UPDATE_BEFORE" {
			before.Reset()
			writeObject(&before, names, row[:nb], f)
			return true, nil
		}
		line.Reset()
		line.WriteString(`{"op":"`)
		line.WriteString(op)
		line.WriteString(`","tso":`)
		line.WriteString(strconv.FormatInt(row[nb+1].I, 10))
		line.WriteString(`,"lsn":`)
		line.WriteString(strconv.FormatInt(row[nb+2].I, 10))
		line.WriteString(`,"row":`)
		start := line.Len()
		writeObject(&line, names, row[:nb], f)
		switch op {
		case "UPDATE_AFTER":
			line.WriteString(`,"before":`)
			line.Write(before.Bytes())
		case "DELETE":
			obj := append([]byte(nil), line.Bytes()[start:]...)
			line.WriteString(`,"before":`)
			line.Write(obj)
		}
		line.WriteString("}\n")
		n++
		_, err := w.Write(line.Bytes())
		return err == nil, err
	})
	return n, err
}

func errorText(format string, args ...any) error { return fmt.Errorf(format, args...) }

func writeObject(b *bytes.Buffer, names [][]byte, vals []types.Value, f *engine.ChangeFeed) {
	b.WriteByte('{')
	for i, v := range vals {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(names[i])
		writeValue(b, v, f.Loc, false)
	}
	b.WriteByte('}')
}

// handleCommit is POST /api/{db}/{stream}/_commit with {"tso": T}: the
// consumer processed every change up to checkpoint T, so the stream's
// offsets move there. Repeating a commit changes nothing.
func (s *Server) handleCommit(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxCommitBodyBytes+1))
	if err != nil || len(body) > maxCommitBodyBytes {
		writeJSON(w, http.StatusBadRequest, restResponse{Msg: "Bad Request", Code: 1, Data: "cannot read request body"})
		return
	}
	var req struct {
		TSO *json.Number `json:"tso"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var tso uint64
	if err == nil {
		err = dec.Decode(&req)
	}
	if err == nil && req.TSO != nil {
		tso, err = strconv.ParseUint(strings.TrimSpace(req.TSO.String()), 10, 64)
	}
	if err != nil || req.TSO == nil {
		writeJSON(w, http.StatusBadRequest, restResponse{Msg: "Bad Request", Code: 1, Data: `the body must be {"tso": <checkpoint>}`})
		return
	}
	if err := s.engine.CommitChanges(chi.URLParam(r, "db"), chi.URLParam(r, "stream"), tso); err != nil {
		writeJSON(w, http.StatusOK, restResponse{Msg: "Error", Code: 1, Data: err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, restResponse{Msg: "success", Code: 0, Data: map[string]uint64{"tso": tso}})
}
