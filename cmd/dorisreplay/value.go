package main

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Values of the interpreter: nil, bool, int64, float64, string, *glist,
// *gmap, *closureVal, builtinFn, unknown and *gexception.
type value = any

// unknown is a value the interpreter cannot compute (a framework helper
// it does not model, a Java class). Checks that depend on it are skipped.
type unknown struct {
	why string
	// failed: the value's statement threw (a failed sql); checks on it
	// fail with the error instead of being skipped.
	failed bool
}

type glist struct{ v []value }

type gmap struct {
	keys []string
	m    map[string]value
}

func newMap() *gmap { return &gmap{m: map[string]value{}} }

func (m *gmap) put(k string, v value) {
	if _, ok := m.m[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.m[k] = v
}

type closureVal struct {
	params   []string
	defaults []node // per parameter, nil if none; nil if no parameter has one
	body     []node
	env      *env
}

type builtinFn func(in *interp, args []value) (value, error)

// gexception is a thrown Groovy exception; msg is its toString.
type gexception struct{ msg string }

func isUnknown(v value) (unknown, bool) {
	u, ok := v.(unknown)
	return u, ok
}

// gstr is Groovy's toString of a value (GString interpolation).
func gstr(v value) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1e7 {
			return strconv.FormatFloat(v, 'f', 1, 64)
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return v
	case *glist:
		parts := make([]string, len(v.v))
		for i, e := range v.v {
			parts[i] = gstr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *gmap:
		parts := make([]string, len(v.keys))
		for i, k := range v.keys {
			parts[i] = k + ":" + gstr(v.m[k])
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *gexception:
		return v.msg
	case unknown:
		return "<unknown " + v.why + ">"
	}
	return fmt.Sprint(v)
}

// truthy is Groovy truth.
func truthy(v value) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case int64:
		return v != 0
	case float64:
		return v != 0
	case string:
		return v != ""
	case *glist:
		return len(v.v) > 0
	case *gmap:
		return len(v.keys) > 0
	}
	return true
}

func toFloat(v value) (float64, bool) {
	switch v := v.(type) {
	case int64:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

// gequal is Groovy's ==: numbers by value, lists element-wise.
func gequal(a, b value) bool {
	if fa, ok := toFloat(a); ok {
		if fb, ok := toFloat(b); ok {
			return fa == fb
		}
		return false
	}
	switch a := a.(type) {
	case nil:
		return b == nil
	case *glist:
		bl, ok := b.(*glist)
		if !ok || len(bl.v) != len(a.v) {
			return false
		}
		for i := range a.v {
			if !gequal(a.v[i], bl.v[i]) {
				return false
			}
		}
		return true
	case *gmap:
		bm, ok := b.(*gmap)
		if !ok || len(bm.keys) != len(a.keys) {
			return false
		}
		for _, k := range a.keys {
			if !gequal(a.m[k], bm.m[k]) {
				return false
			}
		}
		return true
	}
	if s, ok := a.(string); ok {
		bs, ok := b.(string)
		return ok && s == bs
	}
	return a == b
}

// gcompare orders numbers and strings (<, >, <=>).
func gcompare(a, b value) (int, bool) {
	if fa, ok := toFloat(a); ok {
		if fb, ok := toFloat(b); ok {
			switch {
			case fa < fb:
				return -1, true
			case fa > fb:
				return 1, true
			}
			return 0, true
		}
	}
	sa, ok1 := a.(string)
	sb, ok2 := b.(string)
	if ok1 && ok2 {
		return strings.Compare(sa, sb), true
	}
	return 0, false
}

func sortValues(l []value) {
	sort.SliceStable(l, func(i, j int) bool {
		c, ok := gcompare(l[i], l[j])
		if !ok {
			return gstr(l[i]) < gstr(l[j])
		}
		return c < 0
	})
}

// fromJSON converts a decoded JSON value (UseNumber) into interpreter values.
func fromJSON(v any) value {
	switch v := v.(type) {
	case map[string]any:
		m := newMap()
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			m.put(k, fromJSON(v[k]))
		}
		return m
	case []any:
		l := &glist{}
		for _, e := range v {
			l.v = append(l.v, fromJSON(e))
		}
		return l
	case interface{ String() string }: // json.Number
		s := v.String()
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n
		}
		f, _ := strconv.ParseFloat(s, 64)
		return f
	}
	return v
}
