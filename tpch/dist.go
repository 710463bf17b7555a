package tpch

import (
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// dist is a weighted list of words.
type dist struct {
	words []string
	cum   []int // cumulated weights
}

// newDist reads "word weight|word weight|...": the last space of an entry
// separates the word (which may hold spaces) from its weight.
func newDist(spec string) dist {
	var d dist
	total := 0
	for _, e := range strings.Split(spec, "|") {
		e = strings.TrimSpace(e)
		i := strings.LastIndexByte(e, ' ')
		w, err := strconv.Atoi(e[i+1:])
		if i <= 0 || err != nil || w <= 0 {
			panic("BUG: bad word list entry " + strconv.Quote(e))
		}
		total += w
		d.words = append(d.words, e[:i])
		d.cum = append(d.cum, total)
	}
	return d
}

// pick draws a word by weight.
func (d dist) pick(r *rand.Rand) string {
	n := r.IntN(d.cum[len(d.cum)-1])
	return d.words[sort.SearchInts(d.cum, n+1)]
}
