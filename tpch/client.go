package tpch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Client talks to a Doris-compatible frontend (loadgw or Doris) over its
// HTTP API: stream load and the SQL endpoint.
type Client struct {
	// Base is the frontend's URL, "http://127.0.0.1:8030".
	Base string
	// User and Password are sent by basic auth. The default user is root
	// with an empty password.
	User, Password string
	// HTTP is the client used; the default value is a client without a
	// timeout (bound each call with its context).
	HTTP *http.Client
}

func (c *Client) do(req *http.Request) ([]byte, error) {
	user := c.User
	if user == "" {
		user = "root"
	}
	req.SetBasicAuth(user, c.Password)
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %s: %.500s", resp.Status, body)
	}
	return body, nil
}

// StreamLoad loads a generated table file into db.table as Doris's
// load-tpch-data.sh does: '|' separated, the columns of LoadColumns.
func (c *Client) StreamLoad(ctx context.Context, db, table, label string, body io.Reader) error {
	cols, err := LoadColumns(table)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.Base+"/api/"+db+"/"+table+"/_stream_load", body)
	if err != nil {
		return fmt.Errorf("cannot stream load %s: %w", table, err)
	}
	req.Header.Set("Expect", "100-continue")
	req.Header.Set("column_separator", "|")
	req.Header.Set("columns", cols)
	if label != "" {
		req.Header.Set("label", label)
	}
	out, err := c.do(req)
	if err != nil {
		return fmt.Errorf("cannot stream load %s: %w", table, err)
	}
	var r struct{ Status, Message string }
	if err := json.Unmarshal(out, &r); err != nil || r.Status != "Success" {
		return fmt.Errorf("cannot stream load %s: %.1000s", table, out)
	}
	return nil
}

// Result is a query's answer as text: each cell as the server printed it,
// NULL as Null.
type Result struct {
	Columns []string
	Rows    [][]string
}

// Null is the text of a NULL cell.
const Null = "\x00NULL"

// Exec runs stmt (one or several statements separated by ';') in db and
// returns the last one's result set (nil for other statements).
func (c *Client) Exec(ctx context.Context, db, stmt string) (*Result, error) {
	body, _ := json.Marshal(map[string]string{"stmt": stmt})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Base+"/api/query/default_cluster/"+db, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	out, err := c.do(req)
	if err != nil {
		return nil, err
	}
	return parseQueryResponse(out)
}

// parseQueryResponse reads the SQL endpoint's answer: a result set, an
// exec status or an error.
func parseQueryResponse(out []byte) (*Result, error) {
	var resp struct {
		Code int             `json:"code"`
		Msg  string          `json:"msg"`
		Data json.RawMessage `json:"data"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&resp); err != nil {
		return nil, fmt.Errorf("cannot parse the SQL answer %.300q: %w", out, err)
	}
	if resp.Code != 0 {
		var text string
		if json.Unmarshal(resp.Data, &text) != nil {
			text = string(resp.Data)
		}
		return nil, fmt.Errorf("%s: %s", resp.Msg, text)
	}
	var data struct {
		Type string `json:"type"`
		Meta []struct {
			Name string `json:"name"`
		} `json:"meta"`
		Data [][]any `json:"data"`
	}
	dec = json.NewDecoder(bytes.NewReader(resp.Data))
	dec.UseNumber()
	if err := dec.Decode(&data); err != nil {
		return nil, fmt.Errorf("cannot parse the SQL answer's data: %w", err)
	}
	if data.Type != "result_set" {
		return nil, nil
	}
	res := &Result{Rows: make([][]string, len(data.Data))}
	for _, m := range data.Meta {
		res.Columns = append(res.Columns, m.Name)
	}
	for i, row := range data.Data {
		cells := make([]string, len(row))
		for j, v := range row {
			cells[j] = cellText(v)
		}
		res.Rows[i] = cells
	}
	return res, nil
}

func cellText(v any) string {
	switch v := v.(type) {
	case nil:
		return Null
	case json.Number:
		return v.String()
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// WaitReady polls GET / until the frontend answers or timeout passes.
func (c *Client) WaitReady(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	probe := &http.Client{Timeout: time.Second}
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.Base+"/", nil)
		resp, err := probe.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cannot reach %s within %v: %v", c.Base, timeout, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// SplitStatements splits a script into statements at ';' ending a line and
// drops "--" comment lines. The scripts of this package hold no ';' inside
// literals.
func SplitStatements(script string) []string {
	var stmts []string
	var cur strings.Builder
	for _, line := range strings.Split(script, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "--") {
			continue
		}
		trimmed := strings.TrimRight(line, " \t\r")
		if strings.HasSuffix(trimmed, ";") {
			cur.WriteString(strings.TrimSuffix(trimmed, ";"))
			if s := strings.TrimSpace(cur.String()); s != "" {
				stmts = append(stmts, s)
			}
			cur.Reset()
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		stmts = append(stmts, s)
	}
	return stmts
}

// CreateTables creates database db if missing and runs DorisDDL in it:
// drops and creates the eight tables and the view revenue0. A failing view
// statement is returned in skipped and the rest goes on (only query 15
// reads the view); any other failure is the error.
func (c *Client) CreateTables(ctx context.Context, db string) (skipped []error, err error) {
	if _, err := c.Exec(ctx, "information_schema", "CREATE DATABASE IF NOT EXISTS "+db); err != nil {
		return nil, fmt.Errorf("cannot create database %s: %w", db, err)
	}
	for _, s := range DorisDDL() {
		if _, err := c.Exec(ctx, db, s); err != nil {
			if strings.Contains(strings.ToLower(s), " view ") {
				skipped = append(skipped, fmt.Errorf("cannot run %.40q: %w", s, err))
				continue
			}
			return skipped, fmt.Errorf("cannot run %.60q: %w", s, err)
		}
	}
	return skipped, nil
}
