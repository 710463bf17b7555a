package engine

import (
	"math"
	"sort"
	"strings"
)

// similarVars names the three variables whose display names are nearest to
// name by Jaro-Winkler similarity, as Doris's "Unknown system variable"
// text lists them: {'a', 'b', 'c'}. Ties go by name.
func similarVars(name string) string {
	up := strings.ToUpper(name)
	type cand struct {
		name string
		sim  float64
	}
	cands := make([]cand, 0, len(dorisVars))
	for n, d := range dorisVars {
		show := d.prefix + n
		cands = append(cands, cand{show, jaroWinkler(strings.ToUpper(show), up)})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].sim != cands[j].sim {
			return cands[i].sim > cands[j].sim
		}
		return cands[i].name < cands[j].name
	})
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 3 && i < len(cands); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("'" + cands[i].name + "'")
	}
	b.WriteString("}")
	return b.String()
}

// jaroWinkler is the Jaro-Winkler similarity of a and b (1 for equal
// strings), with the usual prefix scale 0.1 over at most 4 characters.
func jaroWinkler(a, b string) float64 {
	if a == b {
		return 1
	}
	short, long := a, b
	if len(short) > len(long) {
		short, long = long, short
	}
	window := max(len(long)/2-1, 0)
	used := make([]bool, len(long))
	var ms, ml []byte
	for i := 0; i < len(short); i++ {
		for j := max(i-window, 0); j < min(i+window+1, len(long)); j++ {
			if !used[j] && short[i] == long[j] {
				used[j] = true
				ms = append(ms, short[i])
				break
			}
		}
	}
	for j := range long {
		if used[j] {
			ml = append(ml, long[j])
		}
	}
	m := float64(len(ms))
	if m == 0 {
		return 0
	}
	t := 0
	for i := range ms {
		if ms[i] != ml[i] {
			t++
		}
	}
	prefix := 0
	for prefix < 4 && prefix < len(short) && a[prefix] == b[prefix] {
		prefix++
	}
	jaro := (m/float64(len(a)) + m/float64(len(b)) + (m-float64(t/2))/m) / 3
	if jaro < 0.7 {
		return jaro
	}
	return jaro + math.Min(0.1, 1/float64(len(long)))*float64(prefix)*(1-jaro)
}
