package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"loadgw/engine"
	"loadgw/types"
)

type queryRequest struct {
	Stmt   *string `json:"stmt"`
	IsSync *bool   `json:"is_sync"`
	Limit  *int    `json:"limit"`
}

// handleQuery is POST /api/query/{ns}/{db}: run the statements of "stmt" in
// one session and answer with the last one's result.
func (s *Server) handleQuery(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	body, err := io.ReadAll(io.LimitReader(r.Body, s.opts.MaxQueryBodyBytes+1))
	if err != nil {
		writeJSON(w, http.StatusOK, restResponse{Msg: "Error", Code: 1, Data: "cannot read request body: " + err.Error()})
		return
	}
	if int64(len(body)) > s.opts.MaxQueryBodyBytes {
		writeJSON(w, http.StatusOK, restResponse{Msg: "Error", Code: 1,
			Data: "request body is larger than " + strconv.FormatInt(s.opts.MaxQueryBodyBytes, 10) + " bytes"})
		return
	}
	var req queryRequest
	if err := json.Unmarshal(body, &req); err != nil || req.Stmt == nil {
		writeJSON(w, http.StatusOK, restResponse{Msg: "Bad Request", Code: 403, Data: "Missing statement request body"})
		return
	}
	if req.IsSync != nil && !*req.IsSync {
		writeJSON(w, http.StatusOK, restResponse{Msg: "Error", Code: 1, Data: "Not support async query execution"})
		return
	}
	limit := 1000
	if req.Limit != nil {
		limit = *req.Limit
	}
	db := chi.URLParam(r, "db")
	sess := s.engine.NewSession(db)
	res, err := sess.Execute(*req.Stmt)
	if err != nil {
		writeJSON(w, http.StatusOK, restResponse{Msg: "Error", Code: 1, Data: sqlErrorText(err)})
		return
	}
	stream := r.Header.Get("X-Doris-Stream") != "false"
	elapsed := time.Since(start).Milliseconds()
	var out bytes.Buffer
	if stream {
		out.WriteString("{\n    \"data\": ")
		writeResultData(&out, res, elapsed, -1, "    ")
		out.WriteString(",\n    \"msg\": \"success\",\n    \"code\": 0\n}")
	} else {
		out.WriteString("{\n    \"msg\": \"success\",\n    \"code\": 0,\n    \"data\": ")
		writeResultData(&out, res, elapsed, limit, "    ")
		out.WriteString(",\n    \"count\": 0\n}")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out.Bytes())
}

// sqlErrorText wraps a statement error as Doris's HTTP SQL endpoint does.
func sqlErrorText(err error) string {
	msg := err.Error()
	var ee *engine.Error
	if !errors.As(err, &ee) {
		msg = err.Error()
	}
	return "Failed to execute sql: java.util.concurrent.ExecutionException: java.sql.SQLSyntaxErrorException: errCode = 2, detailMessage = " + msg
}

// writeResultData writes the "data" object: a result_set with meta and rows,
// or an exec_status. limit < 0 means all rows.
func writeResultData(b *bytes.Buffer, res *engine.Result, elapsed int64, limit int, ind string) {
	in1, in2, in3 := ind+"    ", ind+"        ", ind+"            "
	if !res.ResultSet {
		b.WriteString("{\n" + in1 + "\"type\": \"exec_status\",\n" + in1 + "\"status\": {},\n" + in1 + "\"time\": ")
		b.WriteString(strconv.FormatInt(elapsed, 10))
		b.WriteString("\n" + ind + "}")
		return
	}
	b.WriteString("{\n" + in1 + "\"type\": \"result_set\",\n" + in1 + "\"meta\": [")
	for i, c := range res.Columns {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n" + in2 + "{\n" + in3 + "\"name\": ")
		writeString(b, c.Name)
		b.WriteString(",\n" + in3 + "\"type\": ")
		writeString(b, metaType(c.Type))
		b.WriteString("\n" + in2 + "}")
	}
	if len(res.Columns) > 0 {
		b.WriteString("\n" + in1)
	}
	b.WriteString("],\n" + in1 + "\"data\": [")
	rows := res.Rows
	if limit >= 0 && len(rows) > limit {
		rows = rows[:limit]
	}
	for i, row := range rows {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n" + in2 + "[")
		for j, v := range row {
			if j > 0 {
				b.WriteString(", ")
			}
			writeValue(b, v, res.Loc)
		}
		b.WriteString("]")
	}
	if len(rows) > 0 {
		b.WriteString("\n" + in1)
	}
	b.WriteString("],\n" + in1 + "\"time\": ")
	b.WriteString(strconv.FormatInt(elapsed, 10))
	b.WriteString("\n" + ind + "}")
}

// metaType is the JDBC column type name Doris's endpoint reports.
func metaType(t types.Type) string {
	switch t.Kind {
	case types.Boolean:
		return "BOOLEAN"
	case types.TinyInt:
		return "TINYINT"
	case types.SmallInt:
		return "SMALLINT"
	case types.Int:
		return "INT"
	case types.BigInt:
		return "BIGINT"
	case types.LargeInt:
		return "LARGEINT"
	case types.Float:
		return "FLOAT"
	case types.Double:
		return "DOUBLE"
	case types.Decimal:
		return "DECIMAL"
	case types.Date:
		return "DATE"
	case types.DateTime:
		return "DATETIME"
	case types.TimestampTZ:
		return "TIMESTAMPTZ"
	case types.Char:
		return "CHAR"
	case types.JSON:
		return "JSON"
	case types.Null:
		return "NULL_TYPE"
	}
	return "VARCHAR"
}

// writeValue writes one cell: numbers as JSON numbers, NULL as null,
// everything else as its Doris text.
func writeValue(b *bytes.Buffer, v types.Value, loc *time.Location) {
	switch v.Kind {
	case types.Null:
		b.WriteString("null")
	case types.Boolean, types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		b.WriteString(strconv.FormatInt(v.I, 10))
	case types.LargeInt, types.Decimal:
		b.WriteString(types.Format(v, loc))
	case types.Float, types.Double:
		if math.IsNaN(v.F) || math.IsInf(v.F, 0) {
			writeString(b, types.Format(v, loc))
			return
		}
		b.WriteString(types.Format(v, loc))
	default:
		writeString(b, types.Format(v, loc))
	}
}

// writeString writes s as a JSON string without HTML escaping, as Jackson.
func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode appends a newline
}
