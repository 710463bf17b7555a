package main

import (
	"testing"
	"time"
)

// TestClosureCallAndDefaults replays test_closures.groovy: closures run
// through .call(...) and parameters fall back to their default values, so
// every check passes (before, .call was an unknown method and the table was
// never created).
func TestClosureCallAndDefaults(t *testing.T) {
	res := runSuite(dirSource{"testdata"}, "regression-test/suites/demo/test_closures.groovy", time.Minute)
	if res.Error != "" {
		t.Fatalf("suite error: %s", res.Error)
	}
	if res.Passed != 9 || res.Failed != 0 || res.Skipped != 0 || res.StmtErrors != 0 {
		t.Fatalf("passed %d failed %d skipped %d stmt errors %d; want 9 0 0 0\nfailures: %q\nskips: %q",
			res.Passed, res.Failed, res.Skipped, res.StmtErrors, res.Details, res.Skips)
	}
}

// TestContinuedLinesAndPolls replays test_poll.groovy: a binary operator on
// the next line inside parentheses continues the expression (before, the
// assertion was an unreadable statement and skipped), and a while loop that
// branches on something not modelled skips its check once, not once per
// round of its 20.
func TestContinuedLinesAndPolls(t *testing.T) {
	res := runSuite(dirSource{"testdata"}, "regression-test/suites/demo/test_poll.groovy", time.Minute)
	if res.Error != "" {
		t.Fatalf("suite error: %s", res.Error)
	}
	if res.Passed != 3 || res.Failed != 0 || res.Skipped != 1 || res.StmtErrors != 0 {
		t.Fatalf("passed %d failed %d skipped %d stmt errors %d; want 3 0 1 0\nfailures: %q\nskips: %q",
			res.Passed, res.Failed, res.Skipped, res.StmtErrors, res.Details, res.Skips)
	}
}

// TestQueryAfterSkippedLoad replays test_skipped_load.groovy: a qt_ query
// that differs on a table whose stream load was skipped is skipped too
// (its rows were never loaded), while matching queries pass and queries on
// other tables still fail.
func TestQueryAfterSkippedLoad(t *testing.T) {
	res := runSuite(dirSource{"testdata"}, "regression-test/suites/demo/test_skipped_load.groovy", time.Minute)
	if res.Error != "" {
		t.Fatalf("suite error: %s", res.Error)
	}
	if res.Passed != 1 || res.Failed != 1 || res.Skipped != 2 || res.StmtErrors != 0 {
		t.Fatalf("passed %d failed %d skipped %d stmt errors %d; want 1 1 2 0\nfailures: %q\nskips: %q",
			res.Passed, res.Failed, res.Skipped, res.StmtErrors, res.Details, res.Skips)
	}
}
