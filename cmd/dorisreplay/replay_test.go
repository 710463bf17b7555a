package main

import (
	"strings"
	"testing"
	"time"
)

// TestDemoSuite replays testdata/regression-test/suites/demo/test_demo.groovy
// against an in-process loadgw: its comments say which checks pass, fail
// and are skipped.
func TestDemoSuite(t *testing.T) {
	src := dirSource{"testdata"}
	res := runSuite(src, "regression-test/suites/demo/test_demo.groovy", time.Minute)
	if res.Error != "" {
		t.Fatalf("suite error: %s", res.Error)
	}
	if res.Passed != 7 || res.Failed != 2 || res.Skipped != 2 || res.StmtErrors != 0 {
		t.Fatalf("passed %d failed %d skipped %d stmt errors %d; want 7 2 2 0\nfailures: %q\nskips: %q",
			res.Passed, res.Failed, res.Skipped, res.StmtErrors, res.Details, res.Skips)
	}
	want := []string{"assertEquals: expected <4> but was <3>", `qt_wrong: line 3: expect "4", real "3"`}
	for i, w := range want {
		if !strings.Contains(res.Details[i], w) {
			t.Errorf("failure %d = %q, want it to contain %q", i, res.Details[i], w)
		}
	}
}

func TestParseOut(t *testing.T) {
	o := parseOut("-- header\n-- !a --\n1\t2\n\n-- !b --\n\n-- !a --\nx\n")
	if b, ok := o.next("a"); !ok || len(b) != 1 || b[0] != "1\t2" {
		t.Fatalf("first a: %q %v", b, ok)
	}
	if b, ok := o.next("b"); !ok || len(b) != 0 {
		t.Fatalf("b: %q %v", b, ok)
	}
	if b, ok := o.next("a"); !ok || len(b) != 1 || b[0] != "x" {
		t.Fatalf("second a: %q %v", b, ok)
	}
	if _, ok := o.next("a"); ok {
		t.Fatal("a third a block")
	}
	// A row holding one empty string (Doris's array_join([''], '_')) is a
	// row: only the block's separator line is dropped.
	o = parseOut("-- !e --\n\n\n-- !f --\n_\n\n-- !g --\n\\N\n\n")
	if b, ok := o.next("e"); !ok || len(b) != 1 || b[0] != "" {
		t.Fatalf("e: %q %v", b, ok)
	}
	if b, ok := o.next("f"); !ok || len(b) != 1 || b[0] != "_" {
		t.Fatalf("f: %q %v", b, ok)
	}
	if b, ok := o.next("g"); !ok || len(b) != 1 || b[0] != "\\N" {
		t.Fatalf("g: %q %v", b, ok)
	}
}

func TestCellEqual(t *testing.T) {
	for _, c := range []struct {
		want, got string
		k         cellKind
		eq        bool
	}{
		{"0.1", "0.1", cellDouble, true},
		{"0.0395", "0.039535109", cellDouble, true},
		{"0.04", "0.039535109", cellDouble, true},
		{"0.05", "0.039535109", cellDouble, false},
		{`\N`, "0", cellDouble, false},
		{"2020-01-01T10:00:00", "2020-01-01 10:00:00", cellDateTime, true},
		{"a", "b", cellText, false},
	} {
		if got := cellEqual(c.want, c.got, c.k); got != c.eq {
			t.Errorf("cellEqual(%q, %q) = %v", c.want, c.got, got)
		}
	}
}

func TestParseGroovyForms(t *testing.T) {
	body, err := parseSuite(`suite("x") {
    def a = [k: 1, "s": 'v']
    String b = "${a.k}-$a.s"
    for (int i = 0; i < 3; ++i) { b += i }
    while (false) { sql "x" }
    def f = { x, y -> return x + y }
    assertEquals("1-v012", b)
    assertEquals(5, f(2, 3))
    (0..<2).each { assertTrue(it < 2) }
}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range body {
		if u, ok := s.(*unsupportedStmt); ok {
			t.Fatalf("unsupported: %s", u.text)
		}
	}
	res := &suiteResult{}
	in := &interp{r: &runner{res: res}}
	if err := in.execBlock(body, newEnv(nil)); err != nil {
		t.Fatal(err)
	}
	if res.Passed != 4 || res.Failed+res.Skipped != 0 {
		t.Fatalf("passed %d failed %q skipped %q", res.Passed, res.Failures, res.Skips)
	}
}

// TestConnectSession replays test_connect.groovy: each connect block runs
// in a session of its own.
func TestConnectSession(t *testing.T) {
	res := runSuite(dirSource{"testdata"}, "regression-test/suites/demo/test_connect.groovy", time.Minute)
	if res.Error != "" {
		t.Fatalf("suite error: %s", res.Error)
	}
	if res.Passed != 3 || res.Failed != 0 || res.Skipped != 0 || res.StmtErrors != 0 {
		t.Fatalf("passed %d failed %d skipped %d stmt errors %d; want 3 0 0 0\nfailures: %q\nskips: %q\nnotes: %q",
			res.Passed, res.Failed, res.Skipped, res.StmtErrors, res.Details, res.Skips, res.Notes)
	}
}
