package e2e

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// chromiumPath finds Debian's chromium. Locally the test is skipped
// without it; in CI (CI set) it must be there (.ci/run installs it).
func chromiumPath(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed (.ci/run installs it with apt-get install -y chromium)")
	}
	t.Skip("chromium is not installed; apt-get install -y chromium to run the console test")
	return ""
}

// putLoad sends one stream load and returns its answer.
func (s *server) putLoad(label, body string, hdr ...string) []byte {
	s.t.Helper()
	req, _ := http.NewRequest(http.MethodPut, s.base+"/api/ui/t/_stream_load", strings.NewReader(body))
	req.SetBasicAuth("root", "")
	req.Header.Set("label", label)
	req.Header.Set("column_separator", ",")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return s.do(req)
}

// TestConsoleInChromium runs loads (one failing), opens the console in
// headless Chromium and checks the rendered loads, their status and error
// log links, the table list and the paging; it saves a screenshot in the
// test's artifact directory (go test -artifacts keeps it).
func TestConsoleInChromium(t *testing.T) {
	chrome := chromiumPath(t)
	bin := buildBinary(t)
	s := startServer(t, bin, t.TempDir())
	s.exec("information_schema", "CREATE DATABASE ui")
	s.exec("ui", `CREATE TABLE t (k BIGINT, v VARCHAR(16)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
		PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true", "binlog.format" = "ROW", "binlog.ttl_seconds" = "3600")`)
	const loads = 60
	for i := 0; i < loads-1; i++ {
		s.putLoad(fmt.Sprintf("ok_%02d", i), fmt.Sprintf("%d,a\n%d,b\n", 2*i, 2*i+1))
	}
	if out := s.putLoad("broken", "1,a\nx,y,z\n"); !strings.Contains(string(out), `"Status": "Fail"`) {
		t.Fatalf("the failing load did not fail: %s", out)
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1000))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(bctx); err != nil { // starts the browser; no timeout on this context
		t.Fatalf("cannot start chromium: %v", err)
	}
	ctx, cancelT := context.WithTimeout(bctx, 60*time.Second)
	defer cancelT()

	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte("root:"))
	strs := func(js string) []string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](js))
		if err != nil {
			t.Fatalf("chromium: %s: %v", js, err)
		}
		return v
	}
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("chromium: text of %s: %v", sel, err)
		}
		return v
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Authorization": auth}}); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate(s.base+"/console/"),
		chromedp.WaitVisible(chromedp.CSS(`#loads tbody tr[data-label="broken"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#tables tbody tr`)),
	)
	if err != nil {
		t.Fatalf("chromium: %v\nserver output:\n%s", err, s.out)
	}
	labels := strs(`[...document.querySelectorAll("#loads tbody td.label")].map(e => e.textContent)`)
	statuses := strs(`[...document.querySelectorAll("#loads tbody td.status")].map(e => e.textContent)`)
	links := strs(`[...document.querySelectorAll("#loads tbody a.errlog")].map(e => e.href)`)
	page, tables := text("#page"), text("#tables tbody")
	// Two refreshes give the charts their first points.
	time.Sleep(4500 * time.Millisecond)
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(t.ArtifactDir(), "console.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	if len(labels) != 50 || labels[0] != "broken" || labels[1] != "ok_58" {
		t.Errorf("first page shows %d loads starting %q, want 50 newest first from broken, ok_58", len(labels), labels[:min(3, len(labels))])
	}
	if statuses[0] != "Fail" || statuses[1] != "Success" {
		t.Errorf("statuses start %q, want Fail, Success", statuses[:2])
	}
	if len(links) != 1 || !strings.HasPrefix(links[0], "http://") || !strings.Contains(links[0], "/api/_load_error_log?file=") {
		t.Errorf("error log links = %q, want the failing load's", links)
	}
	if page != "1–50 of 60" {
		t.Errorf("paging = %q", page)
	}
	if !strings.Contains(tables, "ui.t") || !strings.Contains(tables, "Unique MoW") || !strings.Contains(tables, "118") ||
		!strings.Contains(tables, "retention 1h0m0s") {
		t.Errorf("tables = %q", tables)
	}

	// The older page, then the failed loads only.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#next`)),
		chromedp.WaitVisible(chromedp.CSS(`#loads tbody tr[data-label="ok_00"]`)),
	)
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	older := strs(`[...document.querySelectorAll("#loads tbody td.label")].map(e => e.textContent)`)
	page = text("#page")
	err = chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`#status`), "Fail"),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Evaluate[any](`document.getElementById("status").dispatchEvent(new Event("change"))`)(ctx, t)
			return err
		}),
		chromedp.WaitNotPresent(chromedp.CSS(`#loads tbody tr[data-label="ok_00"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#loads tbody tr[data-label="broken"]`)),
	)
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	labels = strs(`[...document.querySelectorAll("#loads tbody td.label")].map(e => e.textContent)`)
	if len(older) != 10 || page != "51–60 of 60" {
		t.Errorf("older page: %d loads, paging %q", len(older), page)
	}
	if len(labels) != 1 || labels[0] != "broken" {
		t.Errorf("failed loads = %q", labels)
	}
}
