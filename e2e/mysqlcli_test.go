package e2e

// Scripted sessions of the mysql command-line client (Debian's
// mariadb-client) against the MySQL port, compared with the expected text
// in testdata/mysqlcli. Regenerate with go test ./e2e -run MySQLClient -rewrite.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// mysqlClient is the path of the mysql client. Without it the test skips
// locally and fails in CI (.ci/run installs mariadb-client).
func mysqlClient(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("mysql")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("the mysql client is missing: .ci/run installs it with apt-get install -y mariadb-client")
		}
		t.Skip("the mysql client is not installed (apt-get install -y mariadb-client)")
	}
	return p
}

// madeUpLabel matches the labels loadgw makes up for INSERTs, which differ
// at every run.
var madeUpLabel = regexp.MustCompile(`label_[0-9a-f]+_[0-9a-f]+`)

// madeUpTxnLabel matches the labels of BEGIN without WITH LABEL.
var madeUpTxnLabel = regexp.MustCompile(`txn_insert_[0-9a-f]+-[0-9a-f]+`)

// dateTime matches the times of the clock (mask-times).
var dateTime = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d`)

// TestMySQLClient runs the scripts of testdata/mysqlcli, each on a fresh
// server. Commands:
//
//	mysql [db=NAME] [mask-times]          the input through mysql -t -vv --force (one connection);
//	                                      mask-times replaces date-times with <time>
//	load db=D table=T                     a stream load: header lines, an empty line, the body;
//	                                      prints Status, loaded rows and Message
func TestMySQLClient(t *testing.T) {
	client := mysqlClient(t)
	datadriven.Walk(t, "../testdata/mysqlcli", func(t *testing.T, path string) {
		s, addr := startMySQLServer(t)
		host, port, _ := strings.Cut(addr, ":")
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "mysql":
				args := []string{"-h", host, "-P", port, "-uroot", "-t", "-vv", "--force"}
				if d.HasArg("db") {
					var db string
					d.ScanArgs(t, "db", &db)
					args = append(args, db)
				}
				out := runClient(t, client, args, d.Input)
				if d.HasArg("mask-times") {
					out = dateTime.ReplaceAllString(out, "<time>")
				}
				return out
			case "load":
				return streamLoad(t, s, d)
			}
			d.Fatalf(t, "unknown command %s", d.Cmd)
			return ""
		})
	})
}

func runClient(t *testing.T, client string, args []string, input string) string {
	cmd := exec.Command(client, args...)
	cmd.Stdin = strings.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("cannot run mysql: %v", err)
		}
	}
	out := stdout.String()
	if stderr.Len() > 0 {
		out += "stderr:\n" + stderr.String()
	}
	out = madeUpTxnLabel.ReplaceAllString(out, "txn_insert_<made up>")
	return madeUpLabel.ReplaceAllString(out, "label_<made up>")
}

func streamLoad(t *testing.T, s *server, d *datadriven.TestData) string {
	var db, table string
	d.ScanArgs(t, "db", &db)
	d.ScanArgs(t, "table", &table)
	head, body, _ := strings.Cut(d.Input, "\n\n")
	req, err := http.NewRequest(http.MethodPut, s.base+"/api/"+db+"/"+table+"/_stream_load", strings.NewReader(body+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth("root", "")
	for _, line := range strings.Split(head, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			d.Fatalf(t, "header line without ':': %q", line)
		}
		req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	var resp struct {
		Status           string
		NumberLoadedRows int
		Message          string
	}
	if err := json.Unmarshal(s.do(req), &resp); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s loaded=%d %s\n", resp.Status, resp.NumberLoadedRows, resp.Message)
}
