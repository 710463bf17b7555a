// Package e2e drives the loadgw binary over HTTP as a client would: it
// builds cmd/loadgw, runs it on a temporary data directory, and checks the
// SQL endpoint, /api/tso, clean shutdown on SIGTERM, restart and durability
// after kill -9 (e2e_test.go); stream load with curl, 2PC across restarts,
// concurrent loads and load limits (streamload_test.go); and the example
// scripts of scripts/curl (scripts_test.go).
package e2e

import (
	"bytes"
	"encoding/json"
	"net/http"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// tsoStatus is GET /api/tso's data.
type tsoStatus struct {
	WindowEnd int64  `json:"window_end_physical_time"`
	Current   uint64 `json:"current_tso"`
	Physical  int64  `json:"current_tso_physical_time"`
	Logical   int64  `json:"current_tso_logical_counter"`
}

// tso reads GET /api/tso and checks its exact shape.
func (s *server) tso() tsoStatus {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.base+"/api/tso", nil)
	if err != nil {
		s.t.Fatal(err)
	}
	req.SetBasicAuth("root", "")
	raw := s.do(req)
	var shape map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&shape); err != nil {
		s.t.Fatalf("cannot decode /api/tso answer %s: %v", raw, err)
	}
	data, _ := shape["data"].(map[string]any)
	if shape["msg"] != "success" || shape["code"] != json.Number("0") || shape["count"] != json.Number("0") || len(shape) != 4 || len(data) != 4 {
		s.t.Fatalf("/api/tso answer has the wrong shape: %s", raw)
	}
	var env struct{ Data tsoStatus }
	if err := json.Unmarshal(raw, &env); err != nil {
		s.t.Fatalf("cannot decode /api/tso data %s: %v", raw, err)
	}
	st := env.Data
	if st.Current != uint64(st.Physical)<<18|uint64(st.Logical) || st.Logical < 0 || st.Logical >= 1<<18 {
		s.t.Errorf("/api/tso: current_tso %d is not physical %d << 18 | logical %d", st.Current, st.Physical, st.Logical)
	}
	if st.WindowEnd < st.Physical {
		s.t.Errorf("/api/tso: window_end_physical_time %d is before current_tso_physical_time %d", st.WindowEnd, st.Physical)
	}
	return st
}

const (
	createDup = "CREATE TABLE dup (k BIGINT, v INT, s VARCHAR(32)) DUPLICATE KEY(k) " +
		`DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1")`
	createUniq = "CREATE TABLE uniq (k INT NOT NULL, v VARCHAR(16)) UNIQUE KEY(k) " +
		`DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1")`
)

var (
	// The meta types are the JDBC names Doris's endpoint reports: INTEGER
	// for INT, CHAR for VARCHAR(n).
	dupMeta  = []string{"k:BIGINT", "v:INTEGER", "s:CHAR"}
	uniqMeta = []string{"k:INTEGER", "v:CHAR"}
	dupRows  = []string{`[1,10,"a"]`, `[1,11,"b"]`, `[2,20,null]`, `[3,-5,"héllo \"q\""]`}
	uniqRows = []string{`[1,"one-v2"]`, `[2,"two"]`, `[3,"three"]`}
)

const (
	selectDup  = "SELECT * FROM dup ORDER BY k, v"
	selectUniq = "SELECT * FROM uniq ORDER BY k"
)

func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the loadgw binary")
	}
	bin := buildBinary(t)
	dir := filepath.Join(t.TempDir(), "data")

	s := startServer(t, bin, dir)
	s.exec("information_schema", "CREATE DATABASE e2e")
	s.exec("e2e", createDup)
	s.exec("e2e", createUniq)

	before := s.tso()
	s.exec("e2e", `INSERT INTO dup VALUES (1, 10, 'a'), (2, 20, NULL); INSERT INTO dup VALUES (1, 11, 'b');`+
		` INSERT INTO dup (k, v, s) VALUES (3, -5, 'héllo "q"'); INSERT INTO uniq VALUES (1, 'one'), (2, 'two')`)
	afterInsert := s.tso()
	if afterInsert.Current <= before.Current {
		t.Errorf("current_tso did not increase after INSERT: %d then %d", before.Current, afterInsert.Current)
	}
	// A Unique Key overwrite of key 1, in the same stmt as a new key.
	s.exec("e2e", "INSERT INTO uniq VALUES (1, 'one-v2'); INSERT INTO uniq VALUES (3, 'three')")
	if st := s.tso(); st.Current <= afterInsert.Current {
		t.Errorf("current_tso did not increase after the overwrite: %d then %d", afterInsert.Current, st.Current)
	}

	s.expectRows("e2e", selectDup, dupMeta, dupRows)
	s.expectRows("e2e", selectUniq, uniqMeta, uniqRows)
	s.expectRows("e2e", "SELECT v FROM uniq WHERE k = 1", []string{"v:CHAR"}, []string{`["one-v2"]`})
	s.expectRows("e2e", "SELECT count(*) FROM dup WHERE k = 1", nil, []string{`[2]`})
	// Several statements in one stmt: the answer is the last one's.
	s.expectRows("e2e", "SELECT 1; SELECT k FROM uniq WHERE k > 1 ORDER BY k", []string{"k:INTEGER"}, []string{`[2]`, `[3]`})

	checkUnknownTable(t, s)

	s.exec("e2e", `ALTER TABLE uniq SET ("disable_auto_compaction" = "true")`)
	_, created := s.query("e2e", "SHOW CREATE TABLE uniq")
	if len(created) != 1 || !strings.Contains(created[0], `\"disable_auto_compaction\" = \"true\"`) {
		t.Fatalf("SHOW CREATE TABLE uniq lacks the altered property: %q", created)
	}
	lastTSO := s.tso()

	if code := s.stop(syscall.SIGTERM); code != 0 {
		t.Fatalf("loadgw exited with code %d after SIGTERM, want 0\n%s", code, s.out)
	}

	// Restart on the same data: everything is still there.
	s = startServer(t, bin, dir)
	checkRestarted(t, s, created, lastTSO)

	// kill -9 right after an acknowledged INSERT: the row survives.
	s.exec("e2e", "INSERT INTO uniq VALUES (4, 'durable')")
	if code := s.stop(syscall.SIGKILL); code == 0 {
		t.Fatalf("loadgw exited cleanly after SIGKILL")
	}
	s = startServer(t, bin, dir)
	s.expectRows("e2e", selectUniq, uniqMeta, append(append([]string{}, uniqRows...), `[4,"durable"]`))
	s.expectRows("e2e", selectDup, dupMeta, append(append([]string{}, dupRows...), `[9,90,"after restart"]`, `[9,91,"again"]`))
	if code := s.stop(syscall.SIGTERM); code != 0 {
		t.Fatalf("loadgw exited with code %d after SIGTERM, want 0\n%s", code, s.out)
	}
}

// checkUnknownTable checks the exact error envelope of a failed statement.
func checkUnknownTable(t *testing.T, s *server) {
	t.Helper()
	raw := s.post("e2e", "SELECT * FROM nosuch")
	var got map[string]any
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("cannot decode error answer %s: %v", raw, err)
	}
	// Doris's text carries the id of its loop-back JDBC connection.
	text, _ := got["data"].(string)
	wantText := regexp.MustCompile(`^Failed to execute sql: java\.sql\.SQLException: \(conn=\d+\) ` +
		`errCode = 2, detailMessage = Table \[nosuch\] does not exist in database \[e2e\]\.$`)
	if !wantText.MatchString(text) {
		t.Errorf("error text for an unknown table = %q, want it to match %s", text, wantText)
	}
	got["data"] = "TEXT"
	want := map[string]any{"msg": "Error", "code": float64(1), "data": "TEXT", "count": float64(0)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("error answer for an unknown table has the wrong shape: %s", raw)
	}
}

func checkRestarted(t *testing.T, s *server, created []string, lastTSO tsoStatus) {
	t.Helper()
	_, dbs := s.query("information_schema", "SHOW DATABASES")
	if !contains(dbs, `["e2e"]`) {
		t.Errorf("SHOW DATABASES after restart = %q, want e2e among them", dbs)
	}
	_, tables := s.query("e2e", "SHOW TABLES")
	if !reflect.DeepEqual(tables, []string{`["dup"]`, `["uniq"]`}) {
		t.Errorf("SHOW TABLES after restart = %q", tables)
	}
	s.expectRows("e2e", selectDup, dupMeta, dupRows)
	s.expectRows("e2e", selectUniq, uniqMeta, uniqRows)
	if _, again := s.query("e2e", "SHOW CREATE TABLE uniq"); !reflect.DeepEqual(again, created) {
		t.Errorf("SHOW CREATE TABLE uniq changed across restart:\n got %q\nwant %q", again, created)
	}
	floor := s.tso()
	if floor.Current <= lastTSO.Current {
		t.Errorf("current_tso after restart %d is not past the last one before %d", floor.Current, lastTSO.Current)
	}
	s.exec("e2e", "INSERT INTO dup VALUES (9, 90, 'after restart')")
	first := s.tso()
	switch {
	case first.Current < floor.Current:
		t.Errorf("current_tso went back after an INSERT after restart: %d then %d", floor.Current, first.Current)
	case first.Current == floor.Current:
		t.Errorf("current_tso %d did not move on the first INSERT after restart", first.Current)
	}
	s.exec("e2e", "INSERT INTO dup VALUES (9, 91, 'again')")
	if st := s.tso(); st.Current <= first.Current {
		t.Errorf("current_tso did not increase after an INSERT: %d then %d", first.Current, st.Current)
	}
	s.expectRows("e2e", "SELECT * FROM dup WHERE k = 9 ORDER BY v", dupMeta,
		[]string{`[9,90,"after restart"]`, `[9,91,"again"]`})
}
