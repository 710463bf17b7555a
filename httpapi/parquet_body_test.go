package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
)

// parquetTestBody writes a Parquet file with parquet-go from a script's
// body: the first line declares the columns, each further line is a JSON
// array of one row's values.
//
//	id:int32, name:string?, tags:list<int32?>?, m:map<string,int64>?, s:struct<a:int32?,b:string?>?
//	[1, "a", [1, null], {"k": 2}, {"a": 1, "b": "x"}]
//
// A type is bool, int8/16/32/64, uint8/16/32/64 (logical INT annotations),
// float, double, string, binary, json, date (days since 1970), int96 (a
// timestamp: "2006-01-02 15:04:05.999999" UTC), timestamp(ms|us|ns[,local])
// (adjusted to UTC unless local; values are "2006-01-02 15:04:05.999999"
// UTC or integers), decimal(P,S[,int32|int64|fixed|bytes]) (values are the
// decimal's text), list<T>, map<K,V>, struct<name:T,...> (fields sorted by
// name, as parquet-go's Group does); a trailing ? makes the column
// optional. group=N writes row groups of N rows; page=N pages of N values.
func parquetTestBody(t testing.TB, spec string) []byte {
	lines := strings.Split(strings.TrimSpace(spec), "\n")
	opts := []parquet.WriterOption{}
	for len(lines) > 0 && strings.Contains(lines[0], "=") && !strings.Contains(lines[0], ":") {
		for _, kv := range strings.Fields(lines[0]) {
			k, v, _ := strings.Cut(kv, "=")
			n, _ := strconv.Atoi(v)
			switch k {
			case "group":
				opts = append(opts, parquet.MaxRowsPerRowGroup(int64(n)))
			case "page":
				opts = append(opts, parquet.PageBufferSize(n))
			}
		}
		lines = lines[1:]
	}
	p := &pqSpecParser{s: lines[0]}
	group := parquet.Group{}
	var cols []pqSpecCol
	for {
		p.space()
		name := p.ident()
		p.expect(':')
		typ := p.typ()
		group[name] = typ.node
		cols = append(cols, pqSpecCol{name, typ, len(cols)})
		p.space()
		if p.i >= len(p.s) {
			break
		}
		p.expect(',')
	}
	if p.err != nil {
		t.Fatalf("parquet schema %q: %v", lines[0], p.err)
	}
	schema := parquet.NewSchema("schema", group)
	// parquet-go orders a Group's fields by name; the leaves follow.
	sort.Slice(cols, func(i, j int) bool { return cols[i].name < cols[j].name })
	next := 0
	top := &pqSpecType{kind: "struct", fields: map[string]*pqSpecType{}}
	for _, c := range cols {
		top.fields[c.name] = c.typ
	}
	top.assign(&next)
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, append(opts, schema)...)
	for _, line := range lines[1:] {
		if strings.TrimSpace(line) == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		var vals []any
		if err := dec.Decode(&vals); err != nil {
			t.Fatalf("parquet row %q: %v", line, err)
		}
		if len(vals) != len(cols) {
			t.Fatalf("parquet row %q: %d values for %d columns", line, len(vals), len(cols))
		}
		row := map[string]any{}
		for _, c := range cols {
			row[c.name] = vals[c.idx]
		}
		e := &pqEmitter{t: t, cols: make([][]parquet.Value, next)}
		e.emit(top, row, 0, 0, 0)
		var r parquet.Row
		for _, c := range e.cols {
			r = append(r, c...)
		}
		if _, err := w.WriteRows([]parquet.Row{r}); err != nil {
			t.Fatalf("parquet row %q: %v", line, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// assign numbers the leaves in parquet-go's column order.
func (st *pqSpecType) assign(next *int) {
	switch st.kind {
	case "list":
		st.elem.assign(next)
	case "map":
		st.key.assign(next)
		st.val.assign(next)
	case "struct":
		for _, name := range st.names() {
			st.fields[name].assign(next)
		}
	default:
		st.col = *next
		*next++
	}
}

func (st *pqSpecType) names() []string {
	var out []string
	for n := range st.fields {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// pqEmitter writes one row's values with their repetition and definition
// levels (Dremel's striping), column by column.
type pqEmitter struct {
	t    testing.TB
	cols [][]parquet.Value
}

// emit writes v of st; r is the repetition level of its first value, d the
// definition level of its parent, rd the parent's repetition depth.
func (e *pqEmitter) emit(st *pqSpecType, v any, r, d, rd int) {
	if st.optional {
		if v == nil {
			e.null(st, r, d)
			return
		}
		d++
	} else if v == nil {
		e.t.Fatalf("NULL for a required %s", st.kind)
	}
	switch st.kind {
	case "list":
		l := v.([]any)
		if len(l) == 0 {
			e.null(st.elem, r, d)
			return
		}
		for i, x := range l {
			rr := r
			if i > 0 {
				rr = rd + 1
			}
			e.emit(st.elem, x, rr, d+1, rd+1)
		}
	case "map":
		m := v.(map[string]any)
		if len(m) == 0 {
			e.null(st.key, r, d)
			e.null(st.val, r, d)
			return
		}
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			rr := r
			if i > 0 {
				rr = rd + 1
			}
			e.emit(st.key, k, rr, d+1, rd+1)
			e.emit(st.val, m[k], rr, d+1, rd+1)
		}
	case "struct":
		m := v.(map[string]any)
		for _, name := range st.names() {
			e.emit(st.fields[name], m[name], r, d, rd)
		}
	default:
		e.cols[st.col] = append(e.cols[st.col], st.leafValue(e.t, v).Level(r, d, st.col))
	}
}

// null writes the one value each leaf under st has when st is absent.
func (e *pqEmitter) null(st *pqSpecType, r, d int) {
	switch st.kind {
	case "list":
		e.null(st.elem, r, d)
	case "map":
		e.null(st.key, r, d)
		e.null(st.val, r, d)
	case "struct":
		for _, name := range st.names() {
			e.null(st.fields[name], r, d)
		}
	default:
		e.cols[st.col] = append(e.cols[st.col], parquet.NullValue().Level(r, d, st.col))
	}
}

type pqSpecCol struct {
	name string
	typ  *pqSpecType
	idx  int // in the declaration
}

type pqSpecType struct {
	node     parquet.Node
	kind     string
	scale    int
	phys     string
	optional bool
	elem     *pqSpecType
	key, val *pqSpecType
	col      int
	fields   map[string]*pqSpecType
}

// leafValue converts a JSON value to the leaf's parquet value.
func (st *pqSpecType) leafValue(t testing.TB, v any) parquet.Value {
	num := func() json.Number { return v.(json.Number) }
	var out any
	switch st.kind {
	case "bool":
		out = v.(bool)
	case "int8", "int16", "int32":
		n, _ := num().Int64()
		out = int32(n)
	case "uint8", "uint16", "uint32":
		n, _ := strconv.ParseUint(num().String(), 10, 32)
		out = uint32(n)
	case "int64":
		n, _ := num().Int64()
		out = n
	case "uint64":
		n, _ := strconv.ParseUint(num().String(), 10, 64)
		out = n
	case "float":
		f, _ := num().Float64()
		out = float32(f)
	case "double":
		f, _ := num().Float64()
		out = f
	case "string", "json":
		out = v.(string)
	case "binary":
		out = []byte(v.(string))
	case "date":
		n, _ := num().Int64()
		out = int32(n)
	case "int96":
		tm, err := time.Parse("2006-01-02 15:04:05.999999", v.(string))
		if err != nil {
			t.Fatal(err)
		}
		days := tm.Unix()/86400 + 2440588
		nanos := tm.Sub(time.Unix(tm.Unix()/86400*86400, 0).UTC()).Nanoseconds()
		out = deprecated.Int96{uint32(nanos), uint32(nanos >> 32), uint32(days)}
	case "ms", "us", "ns":
		if n, ok := v.(json.Number); ok {
			out, _ = n.Int64()
			break
		}
		tm, err := time.Parse("2006-01-02 15:04:05.999999", v.(string))
		if err != nil {
			t.Fatal(err)
		}
		switch st.kind {
		case "ms":
			out = tm.UnixMilli()
		case "us":
			out = tm.UnixMicro()
		default:
			out = tm.UnixNano()
		}
	case "decimal":
		r, ok := new(big.Rat).SetString(v.(string))
		if !ok {
			t.Fatalf("bad decimal %v", v)
		}
		r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(st.scale)), nil)))
		u := new(big.Int).Quo(r.Num(), r.Denom())
		switch st.phys {
		case "int32":
			out = int32(u.Int64())
		case "int64":
			out = u.Int64()
		default:
			out = twosComplement(u, 16)
		}
	default:
		t.Fatalf("no value for type %s", st.kind)
	}
	if b, ok := out.([]byte); ok && st.kind == "decimal" {
		return parquet.FixedLenByteArrayValue(b)
	}
	return parquet.ValueOf(out)
}

func twosComplement(u *big.Int, n int) []byte {
	b := make([]byte, n)
	if u.Sign() >= 0 {
		u.FillBytes(b)
		return b
	}
	m := new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), uint(8*n)), u)
	m.FillBytes(b)
	return b
}

type pqSpecParser struct {
	s   string
	i   int
	err error
}

func (p *pqSpecParser) space() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *pqSpecParser) ident() string {
	p.space()
	start := p.i
	for p.i < len(p.s) && (p.s[p.i] == '_' || p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i]|0x20 >= 'a' && p.s[p.i]|0x20 <= 'z') {
		p.i++
	}
	if start == p.i && p.err == nil {
		p.err = fmt.Errorf("expected a name at %d", p.i)
	}
	return p.s[start:p.i]
}

func (p *pqSpecParser) expect(c byte) {
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != c {
		if p.err == nil {
			p.err = fmt.Errorf("expected %c at %d", c, p.i)
		}
		return
	}
	p.i++
}

func (p *pqSpecParser) peek(c byte) bool {
	p.space()
	return p.i < len(p.s) && p.s[p.i] == c
}

func (p *pqSpecParser) args() []string {
	p.expect('(')
	var out []string
	for p.err == nil {
		out = append(out, p.ident())
		if p.peek(')') {
			p.i++
			return out
		}
		p.expect(',')
	}
	return out
}

func (p *pqSpecParser) typ() *pqSpecType {
	name := p.ident()
	st := &pqSpecType{kind: name}
	switch name {
	case "bool":
		st.node = parquet.Leaf(parquet.BooleanType)
	case "int8", "int16", "int32", "int64":
		bits, _ := strconv.Atoi(name[3:])
		st.node = parquet.Int(bits)
	case "uint8", "uint16", "uint32", "uint64":
		bits, _ := strconv.Atoi(name[4:])
		st.node = parquet.Uint(bits)
	case "float":
		st.node = parquet.Leaf(parquet.FloatType)
	case "double":
		st.node = parquet.Leaf(parquet.DoubleType)
	case "string":
		st.node = parquet.String()
	case "json":
		st.node = parquet.JSON()
	case "binary":
		st.node = parquet.Leaf(parquet.ByteArrayType)
	case "date":
		st.node = parquet.Date()
	case "int96":
		st.node = parquet.Leaf(parquet.Int96Type)
	case "timestamp":
		a := p.args()
		units := map[string]parquet.TimeUnit{"ms": parquet.Millisecond, "us": parquet.Microsecond, "ns": parquet.Nanosecond}
		st.kind = a[0]
		st.node = parquet.TimestampAdjusted(units[a[0]], !(len(a) > 1 && a[1] == "local"))
	case "decimal":
		a := p.args()
		prec, _ := strconv.Atoi(a[0])
		st.scale, _ = strconv.Atoi(a[1])
		st.phys = "fixed"
		if len(a) > 2 {
			st.phys = a[2]
		}
		phys := map[string]parquet.Type{"int32": parquet.Int32Type, "int64": parquet.Int64Type, "fixed": parquet.FixedLenByteArrayType(16)}[st.phys]
		st.node = parquet.Decimal(st.scale, prec, phys)
	case "list":
		p.expect('<')
		st.elem = p.typ()
		p.expect('>')
		st.node = parquet.List(st.elem.node)
	case "map":
		p.expect('<')
		st.key = p.typ()
		p.expect(',')
		st.val = p.typ()
		p.expect('>')
		st.node = parquet.Map(st.key.node, st.val.node)
	case "struct":
		p.expect('<')
		g := parquet.Group{}
		st.fields = map[string]*pqSpecType{}
		for p.err == nil {
			fname := p.ident()
			p.expect(':')
			ft := p.typ()
			g[fname], st.fields[fname] = ft.node, ft
			if p.peek('>') {
				p.i++
				break
			}
			p.expect(',')
		}
		st.node = g
	default:
		if p.err == nil {
			p.err = fmt.Errorf("unknown type %s", name)
		}
		st.node = parquet.String()
	}
	if p.peek('?') {
		p.i++
		st.optional = true
		st.node = parquet.Optional(st.node)
	}
	return st
}
