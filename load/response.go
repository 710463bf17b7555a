package load

import (
	"bytes"
	"encoding/json"
)

// Response is the stream load answer, field for field and in the order of
// Doris's StreamLoadContext::to_json.
type Response struct {
	TxnID                  int64  `json:"TxnId"`
	Label                  string `json:"Label"`
	Comment                string `json:"Comment"`
	TwoPhaseCommit         string `json:"TwoPhaseCommit"`
	Status                 string `json:"Status"`
	ExistingJobStatus      string `json:"ExistingJobStatus,omitempty"`
	Message                string `json:"Message"`
	NumberTotalRows        int64  `json:"NumberTotalRows"`
	NumberLoadedRows       int64  `json:"NumberLoadedRows"`
	NumberFilteredRows     int64  `json:"NumberFilteredRows"`
	NumberUnselectedRows   int64  `json:"NumberUnselectedRows"`
	LoadBytes              int64  `json:"LoadBytes"`
	LoadTimeMs             int64  `json:"LoadTimeMs"`
	BeginTxnTimeMs         int64  `json:"BeginTxnTimeMs"`
	StreamLoadPutTimeMs    int64  `json:"StreamLoadPutTimeMs"`
	ReadDataTimeMs         int64  `json:"ReadDataTimeMs"`
	WriteDataTimeMs        int64  `json:"WriteDataTimeMs"`
	ReceiveDataTimeMs      int64  `json:"ReceiveDataTimeMs"`
	CommitAndPublishTimeMs int64  `json:"CommitAndPublishTimeMs"`
	ErrorURL               string `json:"ErrorURL,omitempty"`
	FirstErrorMsg          string `json:"FirstErrorMsg,omitempty"`

	// GroupCommit marks a load that ran with group_commit sync_mode or
	// async_mode: Doris then answers "GroupCommit": true in place of
	// TwoPhaseCommit and leaves out BeginTxnTimeMs and
	// CommitAndPublishTimeMs.
	GroupCommit bool `json:"-"`
}

// groupCommitResponse is the layout of a group-commit load's answer.
type groupCommitResponse struct {
	TxnID                int64  `json:"TxnId"`
	Label                string `json:"Label"`
	Comment              string `json:"Comment"`
	GroupCommit          bool   `json:"GroupCommit"`
	Status               string `json:"Status"`
	ExistingJobStatus    string `json:"ExistingJobStatus,omitempty"`
	Message              string `json:"Message"`
	NumberTotalRows      int64  `json:"NumberTotalRows"`
	NumberLoadedRows     int64  `json:"NumberLoadedRows"`
	NumberFilteredRows   int64  `json:"NumberFilteredRows"`
	NumberUnselectedRows int64  `json:"NumberUnselectedRows"`
	LoadBytes            int64  `json:"LoadBytes"`
	LoadTimeMs           int64  `json:"LoadTimeMs"`
	StreamLoadPutTimeMs  int64  `json:"StreamLoadPutTimeMs"`
	ReadDataTimeMs       int64  `json:"ReadDataTimeMs"`
	WriteDataTimeMs      int64  `json:"WriteDataTimeMs"`
	ReceiveDataTimeMs    int64  `json:"ReceiveDataTimeMs"`
	ErrorURL             string `json:"ErrorURL,omitempty"`
	FirstErrorMsg        string `json:"FirstErrorMsg,omitempty"`
}

// The values of Response.Status.
const (
	StatusSuccess      = "Success"
	StatusFail         = "Fail"
	StatusLabelExists  = "Label Already Exists"
	StatusPublishTimed = "Publish Timeout"
)

// JSON renders the response as Doris does: pretty-printed with four spaces,
// no HTML escaping, a final newline.
func (r *Response) JSON() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "    ")
	var v any = r
	if r.GroupCommit {
		v = groupCommitResponse{
			TxnID: r.TxnID, Label: r.Label, Comment: r.Comment, GroupCommit: true, Status: r.Status,
			ExistingJobStatus: r.ExistingJobStatus, Message: r.Message, NumberTotalRows: r.NumberTotalRows,
			NumberLoadedRows: r.NumberLoadedRows, NumberFilteredRows: r.NumberFilteredRows,
			NumberUnselectedRows: r.NumberUnselectedRows, LoadBytes: r.LoadBytes, LoadTimeMs: r.LoadTimeMs,
			StreamLoadPutTimeMs: r.StreamLoadPutTimeMs, ReadDataTimeMs: r.ReadDataTimeMs,
			WriteDataTimeMs: r.WriteDataTimeMs, ReceiveDataTimeMs: r.ReceiveDataTimeMs,
			ErrorURL: r.ErrorURL, FirstErrorMsg: r.FirstErrorMsg,
		}
	}
	_ = enc.Encode(v) // cannot fail: only strings, integers and booleans
	return b.Bytes()
}

// Fail fills the response for a failed load: Status Fail, the error's
// Message, and NumberLoadedRows forced to 0 as Doris does.
func (r *Response) Fail(err error) {
	le := AsError(err)
	r.Status = StatusFail
	r.Message = le.Error()
	r.NumberLoadedRows = 0
}
