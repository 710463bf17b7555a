package mysqlwire

import (
	"fmt"
	"reflect"
	"strings"

	querypb "github.com/dolthub/vitess/go/vt/proto/query"

	"loadgw/expr"
	"loadgw/sql"
)

// template is a prepared statement parsed once: each parameter marker was
// parsed as a sentinel string literal, and an execution writes the
// parameter's literal into that node and runs the statements again. A
// statement whose markers do not all become literals (LIMIT ?, a marker in
// a place only a number may take) has no template and is parsed with its
// parameters in place at every execution.
type template struct {
	stmts []sql.Statement
	src   string
	lits  []*expr.Literal // lits[i] is parameter i+1
}

// sentinel is the string literal parsed in place of parameter i+1.
func sentinel(i int) string { return fmt.Sprintf("\x00loadgw-parameter-%d\x00", i+1) }

// newTemplate parses q with sentinels at the markers at; nil when that
// fails or the sentinels do not each land in one literal.
func newTemplate(q string, at []int) *template {
	var b strings.Builder
	prev := 0
	for i, off := range at {
		b.WriteString(q[prev:off])
		b.WriteString("'" + sentinel(i) + "'")
		prev = off + 1
	}
	b.WriteString(q[prev:])
	src := b.String()
	stmts, err := sql.Parse(src)
	if err != nil || len(stmts) == 0 {
		return nil
	}
	t := &template{stmts: stmts, src: src, lits: make([]*expr.Literal, len(at))}
	want := make(map[string]int, len(at))
	for i := range at {
		want[sentinel(i)] = i
	}
	found := 0
	ok := true
	walkLiterals(reflect.ValueOf(stmts), 0, func(l *expr.Literal) {
		i, isParam := want[l.Val.S]
		if !isParam {
			return
		}
		if t.lits[i] != nil {
			ok = false // copied somewhere else as well
			return
		}
		t.lits[i] = l
		found++
	})
	if !ok || found != len(at) {
		return nil
	}
	return t
}

// maxWalkDepth bounds the reflection walk (the parser bounds nesting too).
const maxWalkDepth = 10000

var literalType = reflect.TypeOf((*expr.Literal)(nil))

// walkLiterals calls fn with every *expr.Literal reachable from v.
func walkLiterals(v reflect.Value, depth int, fn func(*expr.Literal)) {
	if depth > maxWalkDepth {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type() == literalType {
			fn(v.Interface().(*expr.Literal))
			return
		}
		walkLiterals(v.Elem(), depth+1, fn)
	case reflect.Interface:
		if !v.IsNil() {
			walkLiterals(v.Elem(), depth+1, fn)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			walkLiterals(v.Field(i), depth+1, fn)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walkLiterals(v.Index(i), depth+1, fn)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			walkLiterals(iter.Value(), depth+1, fn)
		}
	}
}

// bindTemplate writes the parameters into t's literals, each the literal
// the parser makes of the parameter's text; false when one is not a plain
// literal (a negative number parses as a minus), which the caller then
// binds as text.
func (t *template) bind(vars map[string]*querypb.BindVariable) (bool, error) {
	var b strings.Builder
	for i, l := range t.lits {
		v, ok := vars[paramName(i)]
		if !ok || v == nil {
			return false, fmt.Errorf("cannot execute prepared statement: parameter %d is not set", i+1)
		}
		if val, typ, ok := directLiteral(v); ok {
			l.Val, l.Type = val, typ
			continue
		}
		b.Reset()
		writeLiteral(&b, v)
		e, err := sql.ParseExpr(b.String())
		if err != nil {
			return false, nil
		}
		lit, ok := e.(*expr.Literal)
		if !ok {
			return false, nil
		}
		l.Val, l.Type = lit.Val, lit.Type
	}
	return true, nil
}
