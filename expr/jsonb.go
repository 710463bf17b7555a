package expr

import (
	"encoding/json"
	"strconv"
	"strings"

	"loadgw/types"
)

// JSONB values as Doris's functions see them. A JSON column holds compact
// JSON text (types.CanonicalJSON); the functions parse it into a jnode
// tree whose raw fields are slices of that text, so an extracted value is
// printed exactly as stored.

// jnode kinds, named as Doris's jsonb_type reports them.
const (
	jNull byte = iota
	jBool
	jInt    // fits INT (Doris's JSONB int8/int16/int32)
	jBigInt // fits BIGINT
	jLargeInt
	jDouble
	jString
	jObject
	jArray
)

var jTypeNames = [...]string{"null", "bool", "int", "bigint", "largeint", "double", "string", "object", "array"}

// maxJSONDepth bounds the nesting the functions walk (the text was already
// bounded when it was stored; a string argument is bounded here).
const maxJSONDepth = 1000

type jnode struct {
	t    byte
	raw  string // the value's text
	s    string // jString: the decoded string
	b    bool
	i    types.Int128 // jInt, jBigInt, jLargeInt
	f    float64      // jDouble, and every number
	keys []string     // jObject: decoded keys, duplicates kept in order
	kids []*jnode
}

// parseJNode parses JSON text; ok is false when it is not valid JSON.
func parseJNode(s string) (*jnode, bool) {
	p := jparser{s: s}
	n, ok := p.value(0)
	if !ok {
		return nil, false
	}
	p.space()
	return n, p.i == len(p.s)
}

type jparser struct {
	s string
	i int
}

func (p *jparser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *jparser) value(depth int) (*jnode, bool) {
	if depth > maxJSONDepth {
		return nil, false
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, false
	}
	start := p.i
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		n := &jnode{t: jObject}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			n.raw = p.s[start:p.i]
			return n, true
		}
		for {
			p.space()
			k, ok := p.str()
			if !ok {
				return nil, false
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, false
			}
			p.i++
			v, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			n.keys = append(n.keys, k.s)
			n.kids = append(n.kids, v)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				n.raw = p.s[start:p.i]
				return n, true
			}
			return nil, false
		}
	case c == '[':
		p.i++
		n := &jnode{t: jArray}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			n.raw = p.s[start:p.i]
			return n, true
		}
		for {
			v, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			n.kids = append(n.kids, v)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				n.raw = p.s[start:p.i]
				return n, true
			}
			return nil, false
		}
	case c == '"':
		return p.str()
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return &jnode{t: jNull, raw: "null"}, true
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return &jnode{t: jBool, b: true, raw: "true"}, true
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return &jnode{t: jBool, raw: "false"}, true
	case c == '-' || c >= '0' && c <= '9':
		for p.i < len(p.s) && strings.IndexByte("+-0123456789.eE", p.s[p.i]) >= 0 {
			p.i++
		}
		return numberNode(p.s[start:p.i])
	}
	return nil, false
}

// str parses a JSON string token.
func (p *jparser) str() (*jnode, bool) {
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return nil, false
	}
	start := p.i
	p.i++
	esc := false
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case esc:
			esc = false
		case c == '\\':
			esc = true
		case c == '"':
			raw := p.s[start:p.i]
			var s string
			if strings.IndexByte(raw, '\\') < 0 {
				s = raw[1 : len(raw)-1]
			} else if err := json.Unmarshal([]byte(raw), &s); err != nil {
				return nil, false
			}
			return &jnode{t: jString, raw: raw, s: s}, true
		case c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// numberNode types a JSON number as Doris's JSONB does: integers by the
// smallest of INT, BIGINT, LARGEINT that holds them, others DOUBLE.
func numberNode(raw string) (*jnode, bool) {
	if !json.Valid([]byte(raw)) {
		return nil, false
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return nil, false
		}
	}
	n := &jnode{t: jDouble, raw: raw, f: f}
	if strings.ContainsAny(raw, ".eE") {
		return n, true
	}
	if i, err := strconv.ParseInt(raw, 10, 64); err == nil {
		n.i = types.FromInt64(i)
		n.t = jBigInt
		if i >= -1<<31 && i < 1<<31 {
			n.t = jInt
		}
		return n, true
	}
	if x, err := types.ParseInt128(raw); err == nil {
		n.i = x
		n.t = jLargeInt
	}
	return n, true
}

// jstep is one step of a JSON path.
type jstep struct {
	key   string // member name; "" with wild for .*
	wild  bool   // .* or [*]
	isIdx bool
	idx   int  // array index; from the end when last or negative
	last  bool // [last] / [last-n]: idx is n
}

// jpathError is Doris's error for a path it cannot parse.
func jpathError(path string) error {
	return errorf("Json path error: Invalid Json Path for value: %s", path)
}

// parseJPath parses Doris's JSON path: $ followed by .key, ."quoted key",
// .*, [n], [-n], [last], [last-n] and [*].
func parseJPath(path string) ([]jstep, error) {
	if !strings.HasPrefix(path, "$") {
		return nil, jpathError(path)
	}
	var steps []jstep
	s := path[1:]
	for s != "" {
		switch s[0] {
		case '.':
			s = s[1:]
			switch {
			case s == "":
				return nil, jpathError(path)
			case s[0] == '[':
				continue
			case s[0] == '*':
				steps = append(steps, jstep{wild: true})
				s = s[1:]
			case s[0] == '"':
				end := strings.IndexByte(s[1:], '"')
				if end < 0 {
					return nil, jpathError(path)
				}
				steps = append(steps, jstep{key: s[1 : end+1]})
				s = s[end+2:]
			default:
				end := strings.IndexAny(s, ".[")
				if end < 0 {
					end = len(s)
				}
				if end == 0 {
					return nil, jpathError(path)
				}
				steps = append(steps, jstep{key: s[:end]})
				s = s[end:]
			}
		case '[':
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return nil, jpathError(path)
			}
			in := strings.TrimSpace(s[1:end])
			s = s[end+1:]
			st := jstep{isIdx: true}
			switch {
			case in == "*":
				st = jstep{wild: true, isIdx: true}
			case strings.HasPrefix(in, "last"):
				st.last = true
				rest := strings.TrimSpace(in[4:])
				if rest != "" {
					if rest[0] != '-' {
						return nil, jpathError(path)
					}
					n, err := strconv.Atoi(strings.TrimSpace(rest[1:]))
					if err != nil || n < 0 {
						return nil, jpathError(path)
					}
					st.idx = n
				}
			default:
				n, err := strconv.Atoi(in)
				if err != nil {
					return nil, jpathError(path)
				}
				if strings.HasPrefix(in, "-") {
					st.last, st.idx = true, -n-1
					if in == "-0" {
						st.last, st.idx = false, 0
					}
				} else {
					st.idx = n
				}
			}
			steps = append(steps, st)
		default:
			return nil, jpathError(path)
		}
	}
	return steps, nil
}

// walk applies steps to n and appends every match to out; wild reports
// whether the path had a wildcard (its matches form an array).
func (n *jnode) walk(steps []jstep, out []*jnode) []*jnode {
	if len(steps) == 0 {
		return append(out, n)
	}
	st := steps[0]
	switch {
	case st.wild && !st.isIdx:
		if n.t == jObject {
			for _, k := range n.kids {
				out = k.walk(steps[1:], out)
			}
		}
	case st.wild:
		if n.t == jArray {
			for _, k := range n.kids {
				out = k.walk(steps[1:], out)
			}
		}
	case st.isIdx:
		kids := n.kids
		if n.t != jArray {
			kids = []*jnode{n} // a scalar or object is its own element 0
		}
		i := st.idx
		if st.last {
			i = len(kids) - 1 - st.idx
		}
		if i >= 0 && i < len(kids) {
			out = kids[i].walk(steps[1:], out)
		}
	default:
		if n.t == jObject {
			for j, k := range n.keys {
				if k == st.key {
					return n.kids[j].walk(steps[1:], out)
				}
			}
		}
	}
	return out
}

func hasWild(steps []jstep) bool {
	for _, s := range steps {
		if s.wild {
			return true
		}
	}
	return false
}

// jsonArg parses a JSON or string argument; ok is false for invalid JSON.
// A string argument is first made compact, as Doris casts it to JSONB.
func jsonArg(v types.Value) (*jnode, bool) {
	if v.Kind == types.JSON {
		return parseJNode(v.S)
	}
	c, err := types.CanonicalJSON(v.S)
	if err != nil {
		return nil, false
	}
	return parseJNode(c)
}

// jsonFind is the single value at path in doc, or nil. A wildcard path
// yields an array of its matches.
func jsonFind(doc *jnode, path string) (*jnode, error) {
	steps, err := parseJPath(path)
	if err != nil {
		return nil, err
	}
	m := doc.walk(steps, nil)
	if hasWild(steps) {
		if len(m) == 0 {
			return nil, nil
		}
		return arrayOf(m), nil
	}
	if len(m) == 0 {
		return nil, nil
	}
	return m[0], nil
}

func arrayOf(m []*jnode) *jnode {
	var b strings.Builder
	b.WriteByte('[')
	for i, k := range m {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k.raw)
	}
	b.WriteByte(']')
	return &jnode{t: jArray, raw: b.String(), kids: m}
}

func jsonValue(n *jnode) types.Value { return types.NewString(types.JSON, n.raw) }

// jsonbExtract is jsonb_extract(j, path, ...): one path gives the value,
// several give an array of every match.
func jsonbExtract(_ *Context, a []types.Value) (types.Value, error) {
	doc, ok := jsonArg(a[0])
	if !ok {
		return types.NullValue, nil
	}
	if len(a) == 2 {
		n, err := jsonFind(doc, a[1].S)
		if err != nil || n == nil {
			return types.NullValue, err
		}
		return jsonValue(n), nil
	}
	var all []*jnode
	for _, p := range a[1:] {
		steps, err := parseJPath(p.S)
		if err != nil {
			return types.NullValue, err
		}
		all = doc.walk(steps, all)
	}
	if len(all) == 0 {
		return types.NullValue, nil
	}
	return jsonValue(arrayOf(all)), nil
}

// jsonAt is the value at a[1] of document a[0] (nil when absent or the
// document is not JSON).
func jsonAt(a []types.Value) (*jnode, error) {
	doc, ok := jsonArg(a[0])
	if !ok {
		return nil, nil
	}
	if len(a) < 2 {
		return doc, nil
	}
	return jsonFind(doc, a[1].S)
}

// jsonToString is a JSON value as Doris's cast to STRING shows it: a
// string unquoted, JSON null as SQL NULL, others as JSON text.
func jsonToString(n *jnode) types.Value {
	switch n.t {
	case jNull:
		return types.NullValue
	case jString:
		return types.NewString(types.String, n.s)
	}
	return types.NewString(types.String, n.raw)
}

// jsonToInt converts a scalar as Doris's jsonb_extract_int/bigint/largeint:
// BOOLEAN 1/0, integers that fit, DOUBLE truncated when it fits.
func jsonToInt(n *jnode, k types.Kind) types.Value {
	var x types.Int128
	switch n.t {
	case jBool:
		if n.b {
			x = types.FromInt64(1)
		}
	case jInt, jBigInt, jLargeInt:
		x = n.i
	case jDouble:
		v, err := types.Cast(types.NewFloat(types.Double, n.f), types.Type{Kind: k}, nil)
		if err != nil {
			return types.NullValue
		}
		return v
	default:
		return types.NullValue
	}
	switch k {
	case types.Int:
		if !x.IsInt64() || x.Int64() < -1<<31 || x.Int64() >= 1<<31 {
			return types.NullValue
		}
	case types.BigInt:
		if !x.IsInt64() {
			return types.NullValue
		}
	default:
		return types.NewLargeInt(x)
	}
	return types.NewInt(k, x.Int64())
}

func jsonToDouble(n *jnode) types.Value {
	switch n.t {
	case jBool:
		if n.b {
			return types.NewFloat(types.Double, 1)
		}
		return types.NewFloat(types.Double, 0)
	case jInt, jBigInt, jLargeInt, jDouble:
		return types.NewFloat(types.Double, n.f)
	}
	return types.NullValue
}

func jsonToBool(n *jnode) types.Value {
	switch n.t {
	case jBool:
		return types.NewBool(n.b)
	case jInt, jBigInt, jLargeInt, jDouble:
		return types.NewBool(n.f != 0)
	}
	return types.NullValue
}

// jsonExtractAs builds jsonb_extract_<type>(j, path).
func jsonExtractAs(conv func(*jnode) types.Value) evalFn {
	return func(_ *Context, a []types.Value) (types.Value, error) {
		n, err := jsonAt(a)
		if err != nil || n == nil {
			return types.NullValue, err
		}
		return conv(n), nil
	}
}

func jsonExistsPath(_ *Context, a []types.Value) (types.Value, error) {
	n, err := jsonAt(a)
	if err != nil {
		return types.NullValue, err
	}
	return types.NewBool(n != nil), nil
}

// jsonLength is json_length(j[, path]): 1 for a scalar, the element or
// member count of an array or object.
func jsonLength(_ *Context, a []types.Value) (types.Value, error) {
	n, err := jsonAt(a)
	if err != nil || n == nil {
		return types.NullValue, err
	}
	l := 1
	if n.t == jArray || n.t == jObject {
		l = len(n.kids)
	}
	return types.NewInt(types.Int, int64(l)), nil
}

func jsonValid(_ *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.NullValue, nil
	}
	if _, ok := parseJNode(a[0].S); ok {
		return types.NewInt(types.Int, 1), nil
	}
	return types.NewInt(types.Int, 0), nil
}

// jsonContains is json_contains(target, candidate[, path]) with MySQL's
// containment: scalars are equal, an array contains each candidate
// element (or a scalar candidate in one of its elements), an object
// contains every member of a candidate object.
func jsonContains(_ *Context, a []types.Value) (types.Value, error) {
	t, err := jsonAt(append(a[:1:1], a[2:]...))
	if err != nil || t == nil {
		return types.NullValue, err
	}
	c, ok := jsonArg(a[1])
	if !ok {
		return types.NullValue, nil
	}
	return types.NewBool(jcontains(t, c)), nil
}

func jcontains(t, c *jnode) bool {
	switch t.t {
	case jArray:
		if c.t == jArray {
			for _, ck := range c.kids {
				if !jcontains(t, ck) {
					return false
				}
			}
			return true
		}
		for _, tk := range t.kids {
			if jcontains(tk, c) {
				return true
			}
		}
		return false
	case jObject:
		if c.t != jObject {
			return false
		}
		for j, k := range c.keys {
			found := false
			for i, tk := range t.keys {
				if tk == k && jcontains(t.kids[i], c.kids[j]) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	return jequal(t, c)
}

func jequal(a, b *jnode) bool {
	an := a.t >= jInt && a.t <= jDouble
	bn := b.t >= jInt && b.t <= jDouble
	switch {
	case an && bn:
		if a.t != jDouble && b.t != jDouble {
			return a.i == b.i
		}
		return a.f == b.f
	case a.t != b.t:
		return false
	case a.t == jString:
		return a.s == b.s
	case a.t == jBool:
		return a.b == b.b
	}
	return a.t == jNull
}

// jsonParse is json_parse(text): the text as a JSON value; invalid text is
// an error as in Doris.
func jsonParse(_ *Context, a []types.Value) (types.Value, error) {
	c, err := types.CanonicalJSON(a[0].S)
	if err != nil {
		return types.NullValue, errorf("Parse json document failed at row 0, error: %s", err)
	}
	return types.NewString(types.JSON, c), nil
}

func init() {
	tInt := types.Type{Kind: types.Int}
	str := []argKind{aJSON, aStr}
	register(spec{min: 2, max: -1, args: str, ret: fixedType(tJSON), fn: jsonbExtract}.def(), "json_extract", "jsonb_extract")
	register(spec{min: 2, max: 2, args: str, ret: fixedType(tString), fn: jsonExtractAs(jsonToString)}.def(),
		"json_extract_string", "jsonb_extract_string")
	register(spec{min: 2, max: 2, args: str, ret: fixedType(tInt), fn: jsonExtractAs(func(n *jnode) types.Value { return jsonToInt(n, types.Int) })}.def(),
		"json_extract_int", "jsonb_extract_int")
	register(spec{min: 2, max: 2, args: str, ret: fixedType(tBigInt), fn: jsonExtractAs(func(n *jnode) types.Value { return jsonToInt(n, types.BigInt) })}.def(),
		"json_extract_bigint", "jsonb_extract_bigint")
	register(spec{min: 2, max: 2, args: str, ret: fixedType(tLargeInt), fn: jsonExtractAs(func(n *jnode) types.Value { return jsonToInt(n, types.LargeInt) })}.def(),
		"json_extract_largeint", "jsonb_extract_largeint")
	register(spec{min: 2, max: 2, args: str, ret: fixedType(tDouble), fn: jsonExtractAs(jsonToDouble)}.def(),
		"json_extract_double", "jsonb_extract_double")
	register(spec{min: 2, max: 2, args: str, ret: fixedType(tBool), fn: jsonExtractAs(jsonToBool)}.def(),
		"json_extract_bool", "jsonb_extract_bool")
	register(spec{min: 2, max: 2, args: str, ret: fixedType(tBool), fn: jsonExtractAs(func(n *jnode) types.Value { return types.NewBool(n.t == jNull) })}.def(),
		"json_extract_isnull", "jsonb_extract_isnull")
	register(spec{min: 2, max: 2, args: str, ret: fixedType(tBool), fn: jsonExistsPath}.def(), "json_exists_path", "jsonb_exists_path")
	register(spec{min: 2, max: 2, args: str, ret: fixedType(tString), fn: jsonExtractAs(func(n *jnode) types.Value {
		return types.NewString(types.String, jTypeNames[n.t])
	})}.def(), "json_type", "jsonb_type")
	register(spec{min: 1, max: 2, args: str, ret: fixedType(tInt), fn: jsonLength}.def(), "json_length", "jsonb_length")
	register(spec{min: 1, max: 1, args: str, ret: fixedType(tInt), fn: jsonValid, seesNull: true}.def(), "json_valid", "jsonb_valid")
	register(spec{min: 2, max: 3, args: []argKind{aJSON, aJSON, aStr}, ret: fixedType(tBool), fn: jsonContains}.def(), "json_contains", "jsonb_contains")
	register(spec{min: 1, max: 1, args: []argKind{aStr}, ret: fixedType(tJSON), fn: jsonParse}.def(), "json_parse", "jsonb_parse")
}

// get_json_int/bigint/double/string(json_str, path): Doris's older
// extraction functions over JSON text; a value of another JSON type is NULL.
func getJSONAs(conv func(*jnode) types.Value) evalFn {
	return func(_ *Context, a []types.Value) (types.Value, error) {
		n, err := jsonAt(a)
		if err != nil || n == nil {
			return types.NullValue, nil
		}
		return conv(n), nil
	}
}

func init() {
	str := []argKind{aJSON, aStr}
	register(spec{min: 2, max: 2, args: str, ret: fixedType(types.Type{Kind: types.Int}), fn: getJSONAs(func(n *jnode) types.Value {
		if n.t != jInt {
			return types.NullValue
		}
		return types.NewInt(types.Int, n.i.Int64())
	})}.def(), "get_json_int")
	register(spec{min: 2, max: 2, args: str, ret: fixedType(tBigInt), fn: getJSONAs(func(n *jnode) types.Value {
		if n.t != jInt && n.t != jBigInt {
			return types.NullValue
		}
		return types.NewInt(types.BigInt, n.i.Int64())
	})}.def(), "get_json_bigint")
	register(spec{min: 2, max: 2, args: str, ret: fixedType(tDouble), fn: getJSONAs(func(n *jnode) types.Value {
		if n.t < jInt || n.t > jDouble {
			return types.NullValue
		}
		return types.NewFloat(types.Double, n.f)
	})}.def(), "get_json_double")
	register(spec{min: 2, max: 2, args: str, ret: fixedType(types.Type{Kind: types.Varchar, Len: types.MaxVarcharLen}), fn: getJSONAs(jsonToString)}.def(), "get_json_string")
}
