package load

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/types"
)

// depthTable is `k INT, v INT`, duplicate key k.
var depthTable = &catalog.Table{Name: "t", Keys: catalog.DupKeys, Columns: []*catalog.Column{
	{Name: "k", Type: types.Type{Kind: types.Int}, IsKey: true, Nullable: true},
	{Name: "v", Type: types.Type{Kind: types.Int}, Nullable: true},
}}

// loadWith reads body with the given headers and returns the outcome and
// the response a failed load gets.
func loadWith(t *testing.T, body string, headers map[string]string) (*Outcome, *Response) {
	t.Helper()
	h := http.Header{}
	for k, v := range headers {
		h.Set(k, v)
	}
	p, err := ParseParams(h)
	if err != nil {
		t.Fatal(err)
	}
	o, err := Read(context.Background(), Input{Table: depthTable, Params: p, Body: strings.NewReader(body), Now: time.Unix(0, 0), Loc: time.UTC})
	if err != nil {
		r := &Response{}
		r.Fail(err)
		return nil, r
	}
	return o, nil
}

// TestDeepHeaderExpressionFails sends `where` and `columns` headers nested
// far past expr.MaxDepth: the load fails with Doris's analysis error
// instead of overflowing the stack.
func TestDeepHeaderExpressionFails(t *testing.T) {
	parens := func(n int, inner string) string {
		return strings.Repeat("(", n) + inner + strings.Repeat(")", n)
	}
	for name, headers := range map[string]map[string]string{
		"where parentheses":   {"column_separator": ",", "where": parens(200_000, "k > 0")},
		"where NOT":           {"column_separator": ",", "where": strings.Repeat("NOT ", 200_000) + "k > 0"},
		"columns parentheses": {"column_separator": ",", "columns": "k, tmp, v = " + parens(1_000_000, "tmp")},
		"columns minus":       {"column_separator": ",", "columns": "k, tmp, v = " + strings.Repeat("- ", 1_000_000) + "tmp"},
		"columns chain":       {"column_separator": ",", "columns": "k, tmp, v = tmp" + strings.Repeat(" + 1", 1_000_000)},
	} {
		t.Run(name, func(t *testing.T) {
			_, r := loadWith(t, "1,2\n", headers)
			if r == nil {
				t.Fatal("load succeeded")
			}
			want := "[ANALYSIS_ERROR]TStatus: errCode = 2, detailMessage = Exceeded the maximum depth of an expression tree (3000)."
			if r.Status != StatusFail || r.Message != want {
				t.Fatalf("got %s %q, want %s %q", r.Status, r.Message, StatusFail, want)
			}
		})
	}
}

// TestHeaderExpressionAtDepthLimit loads with `where` and `columns`
// expressions exactly expr.MaxDepth deep, which work.
func TestHeaderExpressionAtDepthLimit(t *testing.T) {
	chain := func(n int) string { return strings.Repeat(" + 0", n) } // n+1 deep
	o, r := loadWith(t, "1,2\n-1,3\n", map[string]string{
		"column_separator": ",",
		"columns":          "k, tmp, v = tmp" + chain(expr.MaxDepth-1),
		"where":            "k" + chain(expr.MaxDepth-2) + " > 0",
	})
	if r != nil {
		t.Fatal(r.Message)
	}
	if o.Loaded() != 1 || o.Unselected != 1 || o.Rows[0][1].I != 2 {
		t.Fatalf("got %+v", o)
	}
}
