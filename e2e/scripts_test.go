package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// scriptWants is what each example of scripts/curl must print. A script
// not listed here must still exit with 0 and print no failure.
var scriptWants = map[string][]string{
	"first-steps.sh": {`"type": "result_set"`, `[1,"created",100.00]`, `[2,"paid",25.50]`},
	"stream-load-csv.sh": {`"Status": "Success"`, `"NumberLoadedRows": 3`,
		`[1,"paid",100.00]`, `[2,"created",25.50]`, `[3,"shipped",7.25]`},
	"stream-load-json.sh": {`"Status": "Success"`, `"NumberLoadedRows": 3`, `"NumberLoadedRows": 2`,
		`[10,"created",12.50]`, `[11,"paid",40.00]`, `[12,"paid",3.99]`, `[13,"created",8.00]`},
	"stream-load-mapping.sh": {`"Status": "Success"`, `"NumberLoadedRows": 2`, `"NumberUnselectedRows": 1`,
		`[20,"CREATED",19.99]`, `[21,"PAID",2.50]`},
	"stream-load-2pc.sh": {`"Status": "Success"`, `"TwoPhaseCommit": "true"`, `"data":"PRECOMMITTED"`,
		`"status": "Success"`, `commit successfully.`, `"data":"VISIBLE"`, `[30,"created",5.00]`, `[31,"created",6.00]`},
	"error-log.sh": {`"Status": "Success"`, `"NumberLoadedRows": 2`, `"NumberFilteredRows": 2`, `"ErrorURL": "http://`,
		"Reason: the length of input is too long than schema.", "src line [42,paid];"},
	"row-binlog.sh": {`"Status": "Success"`, `"NumberLoadedRows": 2`,
		`[0,1,"created",100.00,null,null]`, `[1,1,"paid",100.00,"created",100.00]`, `[2,1,"paid",100.00,"paid",100.00]`,
		`[0,1,"created",150.00,null,null]`, `[1,1,"shipped",150.00,"created",150.00]`, `[0,2,"created",20.00,null,null]`,
		`[1,"shipped",150.00,0]`, `[2,"created",20.00,0]`},
	"change-feed.sh": {`[1,"created","UPDATE_BEFORE"]`, `[2,"created","DELETE"]`, `[1,"paid",100.00]`, `[3,"created",300.00]`,
		`["orders_sync",true,true]`, `{"op":"UPDATE_AFTER"`, `"before":{"order_id":1,"status":"created","amount":100.00}`,
		`{"op":"DELETE"`, `"rows":3,"more":false}`, `"code":0,"data":{"tso":`, `[0]`},
	"stream-consumer.sh": {`"code":0,"data":{"tso":`},
	"row-ttl.sh": {`[2,"persistent"]`, `[3,"live"]`, `[4,"omitted"]`, `[3,2]`,
		`"Status": "Success"`, `"NumberLoadedRows": 2`, `[10,"stream-live"]`, `[1,10]`},
}

// scriptFailures are texts no example may print: a failed load, a failed
// 2PC call, a failed SQL statement.
var scriptFailures = []string{`"Status": "Fail"`, `"Status": "Label Already Exists"`, `"status": "ANALYSIS_ERROR"`,
	`"status": "INTERNAL_ERROR"`, `"msg":"Error"`, `"msg": "Error"`}

// TestCurlScripts runs every bash example of scripts/curl against a fresh
// server, in name order, twice (they must be re-runnable), so the examples
// of the README cannot rot.
func TestCurlScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the loadgw binary")
	}
	bash := toolPath(t, "bash")
	toolPath(t, "curl")
	scripts, err := filepath.Glob(filepath.Join(moduleRoot(t), "scripts", "curl", "*.sh"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts in scripts/curl (%v)", err)
	}
	for name := range scriptWants {
		if _, err := os.Stat(filepath.Join(moduleRoot(t), "scripts", "curl", name)); err != nil {
			t.Errorf("scripts/curl/%s is expected but missing: %v", name, err)
		}
	}
	s := startServer(t, buildBinary(t), filepath.Join(t.TempDir(), "data"))
	for round := 1; round <= 2; round++ {
		for _, path := range scripts {
			out := runScript(t, bash, path, s.addr)
			name := filepath.Base(path)
			for _, bad := range scriptFailures {
				if bytes.Contains(out, []byte(bad)) {
					t.Errorf("round %d: %s printed %s:\n%s", round, name, bad, out)
				}
			}
			for _, want := range scriptWants[name] {
				if !bytes.Contains(out, []byte(want)) {
					t.Errorf("round %d: %s did not print %s:\n%s", round, name, want, out)
				}
			}
		}
	}
}

// runScript runs path with bash and HOST=addr and returns its stdout; a
// non-zero exit fails the test.
func runScript(t *testing.T, bash, path, addr string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, path)
	cmd.Env = append(os.Environ(), "HOST="+addr, "LABEL=") // LABEL empty: each script makes its own
	cmd.Dir = t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bash %s: %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(path), err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.Bytes()
}
