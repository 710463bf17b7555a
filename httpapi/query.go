package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
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
	s.opts.Metrics.ObserveSQLRequest()
	body, err := io.ReadAll(io.LimitReader(r.Body, s.opts.MaxQueryBodyBytes+1))
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = fmt.Errorf("not received within %v (--body-read-timeout): %w", s.opts.BodyReadTimeout, err)
	}
	if err != nil {
		w.Header().Set("Connection", "close")
		writeJSON(w, http.StatusOK, restResponse{Msg: "Error", Code: 1, Data: "cannot read request body: " + err.Error()})
		return
	}
	// The statement may run longer than the body read was allowed to take.
	_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
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
	defer sess.Close() // an unfinished BEGIN rolls back
	if user, host, ok := clientOf(r); ok {
		sess.SetClient(user, host, 0)
	}
	res, err := sess.ExecuteContext(r.Context(), *req.Stmt)
	if err != nil {
		writeJSON(w, http.StatusOK, restResponse{Msg: "Error", Code: 1, Data: s.sqlErrorText(err)})
		return
	}
	stream := r.Header.Get("X-Doris-Stream") != "false"
	elapsed := time.Since(start).Milliseconds()
	var out bytes.Buffer
	switch {
	case stream && res.ResultSet:
		writeStreamResultSet(&out, res, elapsed)
	case stream:
		fmt.Fprintf(&out, "{\n    \"msg\": \"success\",\n    \"code\": 0,\n    \"data\": {\n        \"type\": \"exec_status\",\n        \"status\": {},\n        \"time\": %d\n    }\n}", elapsed)
	case res.ResultSet:
		out.WriteString(`{"msg":"success","code":0,"data":{"data":`)
		rows := res.Rows
		if len(rows) > limit {
			rows = rows[:max(limit, 0)]
		}
		writeRows(&out, rows, res.Loc, "", false)
		out.WriteString(`,"meta":`)
		writeMeta(&out, res.Columns, false)
		fmt.Fprintf(&out, `,"time":%d,"type":"result_set"},"count":0}`, elapsed)
	default:
		fmt.Fprintf(&out, `{"msg":"success","code":0,"data":{"time":%d,"type":"exec_status","status":{}},"count":0}`, elapsed)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out.Bytes())
}

// sqlErrorText wraps a statement error as Doris's HTTP SQL endpoint does:
// the worker's ExecutionException message is the MariaDB driver's exception,
// which prefixes the server text with the connection id.
func (s *Server) sqlErrorText(err error) string {
	return fmt.Sprintf("Failed to execute sql: java.sql.SQLException: (conn=%d) errCode = 2, detailMessage = %s", s.connID.Add(1), err.Error())
}

// writeStreamResultSet writes the streaming layout: the envelope
// pretty-printed, meta and each row compact on one line, Gson escaping.
func writeStreamResultSet(b *bytes.Buffer, res *engine.Result, elapsed int64) {
	b.WriteString("{\n    \"data\": {\n        \"type\": \"result_set\",\n        \"meta\": ")
	writeMeta(b, res.Columns, true)
	b.WriteString(",\n        \"data\": ")
	writeRows(b, res.Rows, res.Loc, "            ", true)
	fmt.Fprintf(b, ",\n        \"time\": %d\n    },\n    \"msg\": \"success\",\n    \"code\": 0\n}", elapsed)
}

func writeMeta(b *bytes.Buffer, cols []engine.Column, gson bool) {
	b.WriteString("[")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(",")
		}
		name := c.Name
		if c.OrigName != "" {
			name = c.OrigName
		}
		b.WriteString(`{"name":`)
		writeString(b, name, gson)
		b.WriteString(`,"type":`)
		writeString(b, metaType(c.Type), gson)
		b.WriteString("}")
	}
	b.WriteString("]")
}

// writeRows writes the rows array; with indent, one row per line.
func writeRows(b *bytes.Buffer, rows [][]types.Value, loc *time.Location, indent string, gson bool) {
	if len(rows) == 0 {
		b.WriteString("[]")
		return
	}
	b.WriteString("[")
	for i, row := range rows {
		if i > 0 {
			b.WriteString(",")
		}
		if indent != "" {
			b.WriteString("\n" + indent)
		}
		b.WriteString("[")
		for j, v := range row {
			if j > 0 {
				b.WriteString(",")
			}
			writeValue(b, v, loc, gson)
		}
		b.WriteString("]")
	}
	if indent != "" {
		b.WriteString("\n" + indent[:len(indent)-4])
	}
	b.WriteString("]")
}

// metaType is the column type name the MariaDB JDBC driver behind Doris's
// endpoint reports for a Doris result column.
func metaType(t types.Type) string {
	switch t.Kind {
	case types.Boolean:
		return "BIT"
	case types.TinyInt:
		return "TINYINT"
	case types.SmallInt:
		return "SMALLINT"
	case types.Int:
		return "INTEGER"
	case types.BigInt:
		return "BIGINT"
	case types.Float:
		return "FLOAT"
	case types.Double:
		return "DOUBLE"
	case types.Decimal:
		return "DECIMAL"
	case types.Date:
		return "DATE"
	case types.DateTime, types.TimestampTZ:
		return "DATETIME"
	case types.String:
		return "VARCHAR"
	case types.JSON, types.Variant:
		return "JSON"
	}
	return "CHAR" // LARGEINT, CHAR, VARCHAR, bitmap, NULL
}

// writeValue writes one cell as the driver's Java object serializes: numbers
// as JSON numbers (DOUBLE in Java's Double.toString form, DECIMAL keeping its
// scale), BOOLEAN as true/false, LARGEINT and everything else as strings.
func writeValue(b *bytes.Buffer, v types.Value, loc *time.Location, gson bool) {
	switch v.Kind {
	case types.Null:
		b.WriteString("null")
	case types.Boolean:
		b.WriteString(strconv.FormatBool(v.I != 0))
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		b.WriteString(strconv.FormatInt(v.I, 10))
	case types.Decimal:
		b.WriteString(javaBigDecimal(types.Int128Of(v), int(v.Scale)))
	case types.Float:
		writeJavaFloat(b, v.F, 32, loc, gson)
	case types.Double:
		writeJavaFloat(b, v.F, 64, loc, gson)
	default:
		writeString(b, types.Format(v, loc), gson)
	}
}

func writeJavaFloat(b *bytes.Buffer, f float64, bits int, loc *time.Location, gson bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		b.WriteString("null")
		return
	}
	b.WriteString(types.JavaDouble(f, bits))
}

// javaBigDecimal renders an unscaled value and scale as Java's
// BigDecimal.toString: plain unless the adjusted exponent is below -6.
func javaBigDecimal(u types.Int128, scale int) string {
	digits := u.String()
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	adjusted := len(digits) - 1 - scale
	if scale >= 0 && adjusted >= -6 {
		return types.FormatDecimal(u, scale)
	}
	out := digits[:1]
	if len(digits) > 1 {
		out += "." + digits[1:]
	}
	out += "E" + strconv.Itoa(adjusted)
	if neg {
		out = "-" + out
	}
	return out
}

// writeString writes s as a JSON string; gson adds Gson's HTML-safe escapes.
func writeString(b *bytes.Buffer, s string, gson bool) {
	start := b.Len()
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode appends a newline
	if gson {
		esc := gsonEscaper.Replace(string(b.Bytes()[start:]))
		b.Truncate(start)
		b.WriteString(esc)
	}
}

var gsonEscaper = strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`, "=", `\u003d`, "'", `\u0027`)
