package engine

import (
	"strings"

	"loadgw/types"
)

// The run of a shared scan (see plan_semi_shared.go): the kept rows are
// built, the scan probes them, and each arm keeps its own marks.

// probeMarks marks the build rows that the scanned row prow matches, for
// each arm whose filter prow passes; c is the first candidate's index + 1.
func (j *joinRun) probeMarks(prow []types.Value, c int32) (bool, error) {
	arms := j.n.marks
	if j.armDone == nil {
		j.armDone = make([][]bool, len(arms))
		for a := range arms {
			j.armDone[a] = make([]bool, len(j.build))
		}
	}
	var passes [8]armPass
	pass := passes[:0]
	if len(arms) <= len(passes) {
		pass = passes[:len(arms)]
	} else {
		pass = make([]armPass, len(arms))
	}
	for i := int(c) - 1; i >= 0; i = j.nextCandidate(i) {
		paired := false
		for a := range arms {
			if j.armDone[a][i] {
				continue
			}
			ok, err := j.armMatches(&arms[a], &pass[a], prow, i, &paired)
			if err != nil {
				return false, err
			}
			j.armDone[a][i] = ok
		}
	}
	return true, nil
}

// armPass is whether a scanned row passes an arm's filter: not yet
// evaluated, passes, fails.
type armPass uint8

const (
	passUnknown armPass = iota
	passYes
	passNo
)

// armMatches reports whether the scanned row prow matches build row i for
// arm: its filter (evaluated once per row, remembered in pass) and its
// condition over the pair (paired: j.row already holds it).
func (j *joinRun) armMatches(arm *markArm, pass *armPass, prow []types.Value, i int, paired *bool) (bool, error) {
	if arm.filter != nil {
		if *pass == passUnknown {
			ok, err := j.x.truth(arm.filter, prow)
			if err != nil {
				return false, err
			}
			*pass = passNo
			if ok {
				*pass = passYes
			}
		}
		if *pass == passNo {
			return false, nil
		}
	}
	if err := j.x.poll(); err != nil {
		return false, err
	}
	if arm.cond == nil {
		return true, nil
	}
	if !*paired {
		j.pair(prow, j.build[i])
		*paired = true
	}
	return j.x.truth(arm.cond, j.row)
}

// unmatchedMarks emits the build rows every semi arm marked and no anti
// arm did.
func (j *joinRun) unmatchedMarks() (stopped bool, err error) {
	for i, b := range j.build {
		keep := true
		for a, arm := range j.n.marks {
			done := j.armDone != nil && j.armDone[a][i]
			if done == arm.anti {
				keep = false
				break
			}
		}
		if keep {
			if more, err := j.fn(b); err != nil || !more {
				return !more, err
			}
		}
	}
	return false, nil
}

// explainMarks is the EXPLAIN line of a shared scan: each join it does,
// with the scan its rows came from and that scan's filter where the
// scanned one does not apply it.
func (n *joinNode) explainMarks(verbose bool) string {
	var parts []string
	for _, arm := range n.marks {
		kind := "LEFT SEMI JOIN"
		if arm.anti {
			kind = "LEFT ANTI JOIN"
		}
		s := kind + " " + arm.alias
		if len(arm.texts) > 0 {
			s += " ON " + strings.Join(arm.texts, " AND ")
		}
		if arm.filter != nil && len(arm.where) > 0 {
			s += " WHERE " + strings.Join(arm.where, " AND ")
		}
		parts = append(parts, s)
	}
	return "HASH JOIN (build left, one scan" + n.explainKeyFilter(verbose) + ") " + strings.Join(parts, "; ")
}
