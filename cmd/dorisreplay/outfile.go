package main

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// outFile holds the blocks of a suite's .out file by tag, consumed in
// order: the n-th qt_tag call compares with the n-th "-- !tag --" block.
type outFile struct {
	blocks map[string][][]string
}

func parseOut(text string) *outFile {
	o := &outFile{blocks: map[string][][]string{}}
	var tag string
	var cur []string
	in := false
	flush := func() {
		if in {
			// A block ends with one empty line before the next header; the
			// framework's SkipLastEmptyLineIterator drops that one only, so
			// a row holding one empty string stays a row.
			if len(cur) > 0 && cur[len(cur)-1] == "" {
				cur = cur[:len(cur)-1]
			}
			o.blocks[tag] = append(o.blocks[tag], cur)
		}
	}
	// Lines as a line reader gives them: no empty line after the final newline.
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if strings.HasPrefix(line, "-- !") && strings.HasSuffix(line, " --") {
			flush()
			tag = strings.TrimSuffix(strings.TrimPrefix(line, "-- !"), " --")
			cur, in = nil, true
			continue
		}
		if strings.HasPrefix(line, "-- ") && !in {
			continue
		}
		if in {
			cur = append(cur, line)
		}
	}
	flush()
	return o
}

func (o *outFile) next(tag string) ([]string, bool) {
	if o == nil || len(o.blocks[tag]) == 0 {
		return nil, false
	}
	b := o.blocks[tag][0]
	o.blocks[tag] = o.blocks[tag][1:]
	return b, true
}

// row is one result row: its cells in the .out form and whether each is
// a FLOAT/DOUBLE/DECIMAL cell (compared with the framework's tolerance)
// or a date-time (T and space compare equal).
type row struct {
	cells []string
	kinds []cellKind
}

type cellKind uint8

const (
	cellText cellKind = iota
	cellFloat
	cellDouble
	cellDecimal
	cellDateTime
)

func (r row) line() string { return strings.Join(r.cells, "\t") }

// compareRows is the framework's checkOutput: line by line, cells by the
// column's type. order_qt_ sorts both sides.
func compareRows(want []string, got []row, order bool) string {
	if order {
		sort.Strings(want)
		sort.Slice(got, func(i, j int) bool { return got[i].line() < got[j].line() })
	}
	for i := 0; i < len(want) || i < len(got); i++ {
		switch {
		case i >= len(got):
			return fmt.Sprintf("line %d: real line is empty, but expect is %q", i+1, want[i])
		case i >= len(want):
			return fmt.Sprintf("line %d: expect line is empty, but real is %q", i+1, got[i].line())
		}
		wc := strings.Split(want[i], "\t")
		if len(wc) != len(got[i].cells) {
			return fmt.Sprintf("line %d: expect %q, real %q", i+1, want[i], got[i].line())
		}
		for j, w := range wc {
			if !cellEqual(w, got[i].cells[j], got[i].kinds[j]) {
				return fmt.Sprintf("line %d: expect %q, real %q", i+1, want[i], got[i].line())
			}
		}
	}
	return ""
}

// cellEqual is OutputUtils.checkCell.
func cellEqual(want, got string, k cellKind) bool {
	switch k {
	case cellFloat, cellDouble, cellDecimal:
		wn, gn := want == `\N`, got == `\N`
		if wn || gn {
			return wn == gn
		}
		for _, sp := range []func(string) bool{isNaN, isInf, isMinusInf} {
			if sp(want) != sp(got) {
				return false
			}
			if sp(want) {
				return true
			}
		}
		w, err1 := strconv.ParseFloat(want, 64)
		g, err2 := strconv.ParseFloat(got, 64)
		if err1 != nil || err2 != nil {
			return want == got
		}
		tol := 1e-8
		if k == cellFloat {
			tol = 1e-6
		}
		if w == g || math.Abs(w-g)/math.Abs(g) <= tol {
			return true
		}
		wp, gp := decimals(want), decimals(got)
		if wp != gp {
			low, lowN, highN := min(wp, gp), w, g
			if gp < wp {
				lowN, highN = g, w
			}
			p := math.Pow(10, float64(low))
			return math.Round(highN*p)/p == lowN
		}
		return false
	case cellDateTime:
		return strings.ReplaceAll(want, "T", " ") == strings.ReplaceAll(got, "T", " ")
	}
	return want == got
}

func decimals(s string) int {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

func isNaN(s string) bool { return strings.EqualFold(s, "nan") || strings.EqualFold(s, "-nan") }
func isInf(s string) bool { return strings.EqualFold(s, "inf") || strings.EqualFold(s, "infinity") }
func isMinusInf(s string) bool {
	return strings.EqualFold(s, "-inf") || strings.EqualFold(s, "-infinity")
}
