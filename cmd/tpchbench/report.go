package main

import (
	"fmt"
	"strings"
	"time"

	"loadgw/tpch"
)

// buildReport is the Markdown table of both systems' times and the
// comparison of their answers, followed by the details of every error and
// difference. Either map may be nil (system not run).
func buildReport(c *config, pg, lg map[int]*outcome) string {
	var b, notes strings.Builder
	fmt.Fprintf(&b, "TPC-H scale factor %v (seed %d), best of %d runs per query (one run past %v), milliseconds.\n", c.sf, c.seed, c.runs, c.repeatMax)
	fmt.Fprintf(&b, "Load average %s before the first load, %s at the end.\n\n", c.loadStart, loadAverage())
	b.WriteString("| query | PostgreSQL 15 | loadgw | loadgw / PostgreSQL | answer |\n|---|---:|---:|---:|---|\n")
	var pgTotal, lgTotal, pgBoth, lgBoth time.Duration
	both, matched := 0, 0
	for _, q := range c.queries {
		p, l := pg[q], lg[q]
		verdict := "–"
		switch {
		case l != nil && l.err != nil:
			verdict = "loadgw error"
			fmt.Fprintf(&notes, "- Q%d loadgw: %s\n", q, oneLine(l.err.Error()))
		case p != nil && p.err != nil:
			verdict = "PostgreSQL error"
		case p != nil && l != nil:
			if d := tpch.Compare(p.result, l.result, tpch.OrderKeys(q)); d == "" {
				verdict = "match"
				matched++
			} else {
				verdict = "**differs**"
				fmt.Fprintf(&notes, "- Q%d differs: %s\n", q, oneLine(d))
			}
		}
		if p != nil && p.err != nil {
			fmt.Fprintf(&notes, "- Q%d PostgreSQL: %s\n", q, oneLine(p.err.Error()))
		}
		if ok(p) {
			pgTotal += p.best
		}
		if ok(l) {
			lgTotal += l.best
		}
		ratio := "–"
		if ok(p) && ok(l) {
			both++
			pgBoth += p.best
			lgBoth += l.best
			ratio = fmt.Sprintf("%.2f", float64(l.best)/float64(p.best))
		}
		fmt.Fprintf(&b, "| Q%d | %s | %s | %s | %s |\n", q, ms(p), ms(l), ratio, verdict)
	}
	total := "–"
	if both > 0 {
		total = fmt.Sprintf("%.2f (%d queries)", float64(lgBoth)/float64(pgBoth), both)
	}
	fmt.Fprintf(&b, "| total | %d | %d | %s | %d of %d match |\n",
		pgTotal.Milliseconds(), lgTotal.Milliseconds(), total, matched, len(c.queries))
	b.WriteString("\nEach total sums the queries that system answered; the total ratio is over the queries both answered.\n")
	if notes.Len() > 0 {
		b.WriteString("\n" + notes.String())
	}
	return b.String()
}

func ok(o *outcome) bool { return o != nil && o.err == nil }

func ms(o *outcome) string {
	switch {
	case o == nil:
		return "–"
	case o.err != nil:
		return "error"
	}
	return fmt.Sprintf("%.0f", float64(o.best.Microseconds())/1000)
}

// oneLine shortens an error for a Markdown list item.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}
