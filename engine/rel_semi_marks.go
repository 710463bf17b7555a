package engine

import (
	"strings"

	"loadgw/types"
)

// The run of a shared scan (see plan_semi_shared.go): the kept rows are
// built, the scan probes them, and each arm keeps its own marks.

// probeMarks marks the build rows that the scanned row prow matches, for
// each arm whose filter prow passes.
func (j *joinRun) probeMarks(prow []types.Value, c int32) (bool, error) {
	arms := j.n.marks
	if j.armDone == nil {
		j.armDone = make([][]bool, len(arms))
		for a := range arms {
			j.armDone[a] = make([]bool, len(j.build))
		}
	}
	// 0: not yet evaluated, 1: passes, 2: fails.
	var passes [8]uint8
	pass := passes[:0]
	if len(arms) <= len(passes) {
		pass = passes[:len(arms)]
	} else {
		pass = make([]uint8, len(arms))
	}
	for i := int(c) - 1; i >= 0; i = j.nextCandidate(i) {
		paired := false
		for a := range arms {
			arm := &arms[a]
			if j.armDone[a][i] {
				continue
			}
			if arm.filter != nil {
				if pass[a] == 0 {
					ok, err := j.x.truth(arm.filter, prow)
					if err != nil {
						return false, err
					}
					pass[a] = 2
					if ok {
						pass[a] = 1
					}
				}
				if pass[a] == 2 {
					continue
				}
			}
			if err := j.x.poll(); err != nil {
				return false, err
			}
			if arm.cond != nil {
				if !paired {
					j.pair(prow, j.build[i])
					paired = true
				}
				ok, err := j.x.truth(arm.cond, j.row)
				if err != nil {
					return false, err
				}
				if !ok {
					continue
				}
			}
			j.armDone[a][i] = true
		}
	}
	return true, nil
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
