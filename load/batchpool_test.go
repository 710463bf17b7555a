package load

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/types"
)

// lines is an ErrorSink that keeps what it gets.
type lines struct{ got []string }

func (l *lines) Add(reason, line string) error {
	l.got = append(l.got, reason+": "+line)
	return nil
}

// wideTable is `k INT, a INT, b VARCHAR(8)`, duplicate key k.
var wideTable = &catalog.Table{Name: "w", Keys: catalog.DupKeys, Columns: []*catalog.Column{
	{Name: "k", Type: types.Type{Kind: types.Int}, IsKey: true, Nullable: true},
	{Name: "a", Type: types.Type{Kind: types.Int}, Nullable: true},
	{Name: "b", Type: types.Type{Kind: types.Varchar, Len: 8}, Nullable: true},
}}

// TestBatchesReused runs loads of tables with different source widths and
// formats, one after another and at once, while source batches go back to
// the pool and out again: each load's rows, counts and error log lines are
// its own.
func TestBatchesReused(t *testing.T) {
	read := func(tb *catalog.Table, body string, headers map[string]string) (*Outcome, []string) {
		h := http.Header{}
		for k, v := range headers {
			h.Set(k, v)
		}
		p, err := ParseParams(h)
		if err != nil {
			t.Error(err)
			return nil, nil
		}
		sink := &lines{}
		o, err := Read(context.Background(), Input{Table: tb, Params: p, Body: strings.NewReader(body), Now: time.Unix(0, 0), Loc: time.UTC, Errors: sink})
		if err != nil {
			t.Error(err)
			return nil, nil
		}
		return o, sink.got
	}
	check := func(i int) {
		// 2,500 rows span three batches; every 1,000th row is bad.
		var json, csv strings.Builder
		for r := 0; r < 2500; r++ {
			a := fmt.Sprint(r * i)
			if r%1000 == 999 {
				a = "bad" + fmt.Sprint(i)
			}
			fmt.Fprintf(&json, `{"k": %d, "a": "%s", "b": "j%d"}`+"\n", r, a, i)
			fmt.Fprintf(&csv, "%d,%s\n", r, a)
		}
		o, errs := read(wideTable, json.String(), map[string]string{"format": "json", "read_json_by_line": "true", "strict_mode": "true"})
		if o == nil || o.Loaded() != 2498 || o.Filtered != 2 || len(errs) != 2 || !strings.Contains(errs[1], `"a": "bad`+fmt.Sprint(i)+`"`) {
			t.Errorf("JSON load %d: %+v, errors %q", i, o, errs)
			return
		}
		if r := o.Rows[2497]; r[0].I != 2499 || r[1].I != int64(2499*i) || r[2].S != fmt.Sprint("j", i) {
			t.Errorf("JSON load %d: last row %v", i, r)
		}
		o, errs = read(depthTable, csv.String(), map[string]string{"column_separator": ",", "strict_mode": "true"})
		if o == nil || o.Loaded() != 2498 || len(errs) != 2 || !strings.HasSuffix(errs[0], "999,bad"+fmt.Sprint(i)) {
			t.Errorf("CSV load %d: %+v, errors %q", i, o, errs)
			return
		}
		if r := o.Rows[0]; r[0].I != 0 || r[1].I != 0 {
			t.Errorf("CSV load %d: first row %v", i, r)
		}
	}
	for i := 1; i <= 3; i++ {
		check(i)
	}
	var wg sync.WaitGroup
	for i := 4; i <= 11; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			check(i)
		}()
	}
	wg.Wait()
}
