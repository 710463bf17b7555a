package expr

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLikeSegmentsMatchesGeneral: a pattern of literals and several %s,
// matched by substring search, answers as the general
// character-by-character matcher does, on random strings over a small
// alphabet (so that runs repeat and overlap), multibyte and invalid UTF-8
// included.
func TestLikeSegmentsMatchesGeneral(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 14))
	alpha := []string{"a", "b", "ab", "中", "%", "\xff"}
	gen := func(n int, pct bool) string {
		var sb strings.Builder
		for range n {
			if pct && rng.IntN(3) == 0 {
				sb.WriteString("%")
				continue
			}
			a := alpha[rng.IntN(len(alpha))]
			if pct && a == "%" {
				a = `\%`
			}
			sb.WriteString(a)
		}
		return sb.String()
	}
	segPatterns := 0
	for range 20000 {
		p := gen(1+rng.IntN(7), true)
		m := compileLike(p)
		if m.kind != likeSegments {
			continue
		}
		segPatterns++
		for range 5 {
			s := gen(rng.IntN(9), false)
			if got, want := m.match(s), matchToks(s, m.toks); got != want {
				t.Fatalf("%q LIKE %q: %v, the general matcher says %v", s, p, got, want)
			}
		}
	}
	if segPatterns < 1000 {
		t.Fatalf("only %d patterns of several %% runs", segPatterns)
	}
}

// BenchmarkLikeSpecialRequests: TPC-H Q13's o_comment NOT LIKE
// '%special%requests%' on comment-like strings, by substring search
// (segments) and by the general matcher.
func BenchmarkLikeSpecialRequests(b *testing.B) {
	comments := []string{
		"nstructions sleep furiously among ",
		"unusual accounts. eve",
		"sly final accounts boost. carefully regular ideas cajole carefully. depos",
		"special packages haggle. slyly express requests",
		"furiously special foxes haggle furiously blithely ironic requests",
	}
	m := compileLike("%special%requests%")
	b.Run("segments", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			m.match(comments[i%len(comments)])
		}
	})
	b.Run("general", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			matchToks(comments[i%len(comments)], m.toks)
		}
	})
}
