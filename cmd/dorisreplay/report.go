package main

import (
	"fmt"
	"io"
	"sort"
)

func printSuiteDetail(w io.Writer, r *suiteResult) {
	fmt.Fprintf(w, "== %s: passed %d failed %d skipped %d stmt_errors %d %s\n", r.Suite, r.Passed, r.Failed, r.Skipped, r.StmtErrors, r.Error)
	for _, d := range r.Details {
		fmt.Fprintf(w, "   FAIL %s\n", d)
	}
	for _, s := range r.Skips {
		fmt.Fprintf(w, "   SKIP %s\n", s)
	}
	for i, s := range r.StmtErrorMsgs {
		fmt.Fprintf(w, "   STMT %s\n        %s\n", s, r.StmtErrorSQL[i])
	}
}

// printReport writes the per-suite table, the totals and the most
// frequent failure, skip and statement-error messages.
func printReport(w io.Writer, results []*suiteResult, top int) {
	fmt.Fprintf(w, "%-72s %6s %6s %6s %7s %8s\n", "suite", "checks", "passed", "failed", "skipped", "stmt_err")
	var t suiteResult
	var failures, skips, stmts []string
	for _, r := range results {
		n := r.Passed + r.Failed + r.Skipped
		note := ""
		if r.Error != "" {
			note = "  ! " + trunc(r.Error, 80)
		}
		fmt.Fprintf(w, "%-72s %6d %6d %6d %7d %8d%s\n", r.Suite, n, r.Passed, r.Failed, r.Skipped, r.StmtErrors, note)
		t.Passed += r.Passed
		t.Failed += r.Failed
		t.Skipped += r.Skipped
		t.StmtErrors += r.StmtErrors
		failures = append(failures, r.Failures...)
		skips = append(skips, r.Skips...)
		stmts = append(stmts, r.StmtErrorMsgs...)
	}
	n := t.Passed + t.Failed + t.Skipped
	fmt.Fprintf(w, "%-72s %6d %6d %6d %7d %8d\n", fmt.Sprintf("TOTAL (%d suites)", len(results)), n, t.Passed, t.Failed, t.Skipped, t.StmtErrors)
	if n > 0 {
		fmt.Fprintf(w, "passed %.1f%% of all checks, %.1f%% of the checks run (passed+failed)\n",
			100*float64(t.Passed)/float64(n), 100*float64(t.Passed)/float64(max(1, t.Passed+t.Failed)))
	}
	printTop(w, "most frequent failures", failures, top)
	printTop(w, "most frequent statement errors (sql outside checks)", stmts, top)
	printTop(w, "most frequent skip reasons", skips, top)
}

func printTop(w io.Writer, title string, msgs []string, top int) {
	if len(msgs) == 0 {
		return
	}
	counts := map[string]int{}
	for _, m := range msgs {
		counts[m]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i] < keys[j]
	})
	fmt.Fprintf(w, "\n%s:\n", title)
	for i, k := range keys {
		if i == top {
			break
		}
		fmt.Fprintf(w, "%6d  %s\n", counts[k], k)
	}
}
