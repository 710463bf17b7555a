package bulkload

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeBE answers stream loads as a Doris BE: each label commits once, a
// second load of it answers Label Already Exists with FINISHED. It checks
// Basic auth and records the rows it got.
type fakeBE struct {
	mu     sync.Mutex
	labels map[string]bool
	rows   int
}

func (f *fakeBE) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	user, pass, ok := r.BasicAuth()
	if !ok || user != "root" || pass != "pw" {
		fmt.Fprint(w, `{"Status":"Fail","Message":"no valid Basic authorization"}`)
		return
	}
	label := r.Header.Get("label")
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.labels[label] {
		fmt.Fprint(w, `{"Status":"Label Already Exists","ExistingJobStatus":"FINISHED"}`)
		return
	}
	b, _ := io.ReadAll(r.Body)
	n := strings.Count(string(b), "\n")
	f.labels[label] = true
	f.rows += n
	fmt.Fprintf(w, `{"Status":"Success","Message":"OK","NumberTotalRows":%d,"NumberLoadedRows":%d}`, n, n)
}

// TestRedirectAndResume loads through a Doris-like FE that redirects every
// stream load to a BE on another host (307): the credentials follow, as
// curl --location-trusted. A second run skips every chunk.
func TestRedirectAndResume(t *testing.T) {
	be := &fakeBE{labels: map[string]bool{}}
	beSrv := httptest.NewServer(be)
	defer beSrv.Close()
	fe := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// 127.0.0.1 and localhost are different hosts to the client.
		http.Redirect(w, r, strings.Replace(beSrv.URL, "127.0.0.1", "localhost", 1)+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer fe.Close()
	file := filepath.Join(t.TempDir(), "rows.csv")
	var b strings.Builder
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&b, "%d,x\n", i)
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	o := Options{Host: fe.URL, DB: "d", Table: "t", User: "root", Password: "pw", Sources: []string{file}, ChunkBytes: 500, Workers: 3}
	sum, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Failed) > 0 || sum.LoadedRows != 1000 || be.rows != 1000 || sum.Loaded != sum.Chunks || sum.Chunks < 10 {
		t.Fatalf("first run: %+v, BE got %d rows", sum, be.rows)
	}
	again, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if again.Skipped != sum.Chunks || again.Loaded != 0 || be.rows != 1000 || again.LabelPrefix != sum.LabelPrefix {
		t.Fatalf("second run: %+v, BE got %d rows", again, be.rows)
	}
}
