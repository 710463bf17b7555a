package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

func (in *interp) eval(x node, e *env) (value, error) {
	switch x := x.(type) {
	case *litExpr:
		return x.v, nil
	case *gstrExpr:
		var b strings.Builder
		for _, p := range x.parts {
			v, err := in.eval(p, e)
			if err != nil {
				return nil, err
			}
			if u, ok := isUnknown(v); ok {
				return u, nil
			}
			b.WriteString(gstr(v))
		}
		return b.String(), nil
	case *identExpr:
		if v, ok := e.lookup(x.name); ok {
			return v, nil
		}
		if f := in.builtin(x.name); f != nil {
			return f, nil
		}
		return unknown{why: x.name}, nil
	case *propExpr:
		o, err := in.eval(x.x, e)
		if err != nil {
			return nil, err
		}
		if o == nil && x.safe {
			return nil, nil
		}
		return in.property(o, x.name)
	case *indexExpr:
		o, err := in.eval(x.x, e)
		if err != nil {
			return nil, err
		}
		k, err := in.eval(x.idx, e)
		if err != nil {
			return nil, err
		}
		return index(o, k)
	case *callExpr:
		return in.call(x, e)
	case *binExpr:
		return in.binary(x, e)
	case *unExpr:
		v, err := in.eval(x.x, e)
		if err != nil {
			return nil, err
		}
		if u, ok := isUnknown(v); ok {
			return u, nil
		}
		switch x.op {
		case "!":
			return !truthy(v), nil
		case "-":
			return arith("-", int64(0), v)
		}
		return v, nil
	case *ternExpr:
		c, err := in.eval(x.cond, e)
		if err != nil {
			return nil, err
		}
		if u, ok := isUnknown(c); ok {
			return u, nil
		}
		if truthy(c) {
			return in.eval(x.a, e)
		}
		return in.eval(x.b, e)
	case *listExpr:
		l := &glist{}
		for _, el := range x.elems {
			v, err := in.eval(el, e)
			if err != nil {
				return nil, err
			}
			l.v = append(l.v, v)
		}
		return l, nil
	case *mapExpr:
		m := newMap()
		for i, k := range x.keys {
			v, err := in.eval(x.vals[i], e)
			if err != nil {
				return nil, err
			}
			m.put(k, v)
		}
		return m, nil
	case *closureExpr:
		return &closureVal{params: x.params, defaults: x.defaults, body: x.body, env: e}, nil
	case *rangeExpr:
		a, err := in.eval(x.from, e)
		if err != nil {
			return nil, err
		}
		b, err := in.eval(x.to, e)
		if err != nil {
			return nil, err
		}
		ai, ok1 := a.(int64)
		bi, ok2 := b.(int64)
		if !ok1 || !ok2 || bi-ai > 100000 {
			return unknown{why: "range"}, nil
		}
		l := &glist{}
		for i := ai; i <= bi; i++ {
			l.v = append(l.v, i)
		}
		return l, nil
	case *newExpr:
		return in.newObject(x, e)
	}
	return nil, fmt.Errorf("BUG: expression %T", x)
}

func (in *interp) newObject(x *newExpr, e *env) (value, error) {
	args, err := in.evalArgs(x.args, e)
	if err != nil {
		return nil, err
	}
	switch x.typ {
	case "Exception", "RuntimeException", "IllegalStateException", "IllegalArgumentException":
		msg := ""
		if len(args) > 0 {
			msg = gstr(args[0])
		}
		return &gexception{msg: "java.lang." + x.typ + ": " + msg}, nil
	case "ArrayList":
		return &glist{}, nil
	case "Random", "java.util.Random":
		return randomVal{}, nil
	case "HashMap", "LinkedHashMap":
		return newMap(), nil
	case "File":
		if len(args) == 1 {
			if s, ok := args[0].(string); ok {
				return fileVal{s}, nil
			}
		}
	case "ByteArrayInputStream":
		if len(args) == 1 {
			if s, ok := args[0].(string); ok {
				return inputStream{s}, nil
			}
		}
	}
	return unknown{why: "new " + x.typ}, nil
}

// fileVal is new File(path); its text is read from the Doris checkout.
type fileVal struct{ path string }

// inputStream is new ByteArrayInputStream(text.getBytes()).
type inputStream struct{ data string }

func (in *interp) evalArgs(args []node, e *env) ([]value, error) {
	out := make([]value, len(args))
	for i, a := range args {
		v, err := in.eval(a, e)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (in *interp) binary(x *binExpr, e *env) (value, error) {
	l, err := in.eval(x.l, e)
	if err != nil {
		return nil, err
	}
	switch x.op { // short circuits
	case "&&":
		if _, ok := isUnknown(l); !ok && !truthy(l) {
			return false, nil
		}
	case "||":
		if _, ok := isUnknown(l); !ok && truthy(l) {
			return true, nil
		}
	case "?:":
		if _, ok := isUnknown(l); !ok && truthy(l) {
			return l, nil
		}
	}
	r, err := in.eval(x.r, e)
	if err != nil {
		return nil, err
	}
	if u, ok := isUnknown(l); ok {
		return u, nil
	}
	if u, ok := isUnknown(r); ok {
		return u, nil
	}
	switch x.op {
	case "&&", "||":
		return truthy(r), nil
	case "?:":
		return r, nil
	case "==":
		return gequal(l, r), nil
	case "!=":
		return !gequal(l, r), nil
	case "<", ">", "<=", ">=", "<=>":
		c, ok := gcompare(l, r)
		if !ok {
			return unknown{why: "compare"}, nil
		}
		switch x.op {
		case "<":
			return c < 0, nil
		case ">":
			return c > 0, nil
		case "<=":
			return c <= 0, nil
		case ">=":
			return c >= 0, nil
		}
		return int64(c), nil
	case "in":
		return contains(r, l), nil
	case "as":
		return convert(l, r.(string)), nil
	case "instanceof":
		return unknown{why: "instanceof"}, nil
	case "=~":
		return unknown{why: "regex"}, nil
	}
	return arith(x.op, l, r)
}

func convert(v value, typ string) value {
	switch typ {
	case "int", "long", "Integer", "Long":
		switch v := v.(type) {
		case string:
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err == nil {
				return n
			}
		case float64:
			return int64(v)
		case int64:
			return v
		}
	case "String":
		return gstr(v)
	case "boolean", "Boolean":
		return truthy(v)
	case "double", "float", "Double":
		if f, ok := toFloat(v); ok {
			return f
		}
		if s, ok := v.(string); ok {
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				return f
			}
		}
	}
	return unknown{why: "as " + typ}
}

func arith(op string, l, r value) (value, error) {
	if op == "+" {
		if s, ok := l.(string); ok {
			return s + gstr(r), nil
		}
		if ll, ok := l.(*glist); ok {
			out := &glist{v: append(append([]value{}, ll.v...), r)}
			if rl, ok := r.(*glist); ok {
				out.v = append(append([]value{}, ll.v...), rl.v...)
			}
			return out, nil
		}
	}
	li, lok := l.(int64)
	ri, rok := r.(int64)
	if lok && rok {
		switch op {
		case "+":
			return li + ri, nil
		case "-":
			return li - ri, nil
		case "*":
			return li * ri, nil
		case "/":
			if ri == 0 {
				return nil, throwf("java.lang.ArithmeticException: Division by zero")
			}
			if li%ri == 0 {
				return li / ri, nil
			}
			return float64(li) / float64(ri), nil
		case "%":
			if ri == 0 {
				return nil, throwf("java.lang.ArithmeticException: Division by zero")
			}
			return li % ri, nil
		}
	}
	lf, lok := toFloat(l)
	rf, rok := toFloat(r)
	if lok && rok {
		switch op {
		case "+":
			return lf + rf, nil
		case "-":
			return lf - rf, nil
		case "*":
			return lf * rf, nil
		case "/":
			return lf / rf, nil
		case "%":
			return math.Mod(lf, rf), nil
		}
	}
	if op == "*" {
		if s, ok := l.(string); ok && rok && rf >= 0 && rf < 1e7 {
			return strings.Repeat(s, int(rf)), nil
		}
	}
	return unknown{why: fmt.Sprintf("%T %s %T", l, op, r)}, nil
}

func contains(c, v value) bool {
	switch c := c.(type) {
	case *glist:
		for _, e := range c.v {
			if gequal(e, v) {
				return true
			}
		}
	case *gmap:
		_, ok := c.m[gstr(v)]
		return ok
	case string:
		return strings.Contains(c, gstr(v))
	}
	return false
}

func index(o, k value) (value, error) {
	if u, ok := isUnknown(o); ok {
		return u, nil
	}
	switch o := o.(type) {
	case *glist:
		i, ok := k.(int64)
		if !ok {
			return unknown{why: "list index"}, nil
		}
		if i < 0 {
			i += int64(len(o.v))
		}
		if i < 0 || int(i) >= len(o.v) {
			return nil, throwf("java.lang.IndexOutOfBoundsException: Index %d out of bounds for length %d", i, len(o.v))
		}
		return o.v[i], nil
	case *gmap:
		return o.m[gstr(k)], nil
	case string:
		i, ok := k.(int64)
		if !ok || i < 0 || int(i) >= len(o) {
			return unknown{why: "string index"}, nil
		}
		return o[i : i+1], nil
	case nil:
		return nil, throwf("java.lang.NullPointerException: Cannot invoke getAt() on null object")
	}
	return unknown{why: fmt.Sprintf("index of %T", o)}, nil
}

func (in *interp) property(o value, name string) (value, error) {
	if u, ok := isUnknown(o); ok {
		return unknown{why: u.why + "." + name}, nil
	}
	switch o := o.(type) {
	case *gmap:
		return o.m[name], nil
	case *gexception:
		if name == "message" {
			return o.msg, nil
		}
	case *glist:
		if name == "size" {
			return int64(len(o.v)), nil
		}
		l := &glist{} // spread: list.name
		for _, e := range o.v {
			v, err := in.property(e, name)
			if err != nil {
				return nil, err
			}
			l.v = append(l.v, v)
		}
		return l, nil
	case fileVal:
		if name == "text" {
			b, err := in.r.readFile(o.path)
			if err != nil {
				return unknown{why: err.Error()}, nil
			}
			return string(b), nil
		}
	case nil:
		return nil, throwf("java.lang.NullPointerException: Cannot get property '%s' on null object", name)
	}
	return unknown{why: fmt.Sprintf("property %s of %T", name, o)}, nil
}
