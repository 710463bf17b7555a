package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

func (in *interp) call(x *callExpr, e *env) (value, error) {
	if p, ok := x.fn.(*propExpr); ok {
		return in.methodCall(x, p, e)
	}
	fn, err := in.eval(x.fn, e)
	if err != nil {
		return nil, err
	}
	id, _ := x.fn.(*identExpr)
	if id != nil {
		// qt_tag / order_qt_tag are resolved by name prefix.
		if strings.HasPrefix(id.name, "qt_") || strings.HasPrefix(id.name, "order_qt_") {
			if _, defined := e.lookup(id.name); !defined {
				args, err := in.evalArgs(x.args, e)
				if err != nil {
					return nil, err
				}
				return nil, in.quickTest(id.name, args)
			}
		}
		if id.name == "streamLoad" || id.name == "test" {
			if _, defined := e.lookup(id.name); !defined && len(x.args) == 1 {
				c, ok := x.args[0].(*closureExpr)
				if ok {
					if id.name == "streamLoad" {
						return nil, in.streamLoad(c, e)
					}
					return nil, in.testBlock(c, e)
				}
			}
		}
	}
	if id != nil {
		switch fn.(type) {
		case *closureVal, builtinFn:
		default: // a variable named like a method: file file
			if f := in.builtin(id.name); f != nil {
				fn = f
			}
		}
	}
	args, err := in.evalArgs(x.args, e)
	if err != nil {
		return nil, err
	}
	return in.apply(fn, args)
}

func (in *interp) apply(fn value, args []value) (value, error) {
	switch f := fn.(type) {
	case *closureVal:
		ce := newEnv(f.env)
		for i, p := range f.params {
			switch {
			case i < len(args):
				ce.vars[p] = args[i]
			case i < len(f.defaults) && f.defaults[i] != nil:
				v, err := in.eval(f.defaults[i], ce)
				if err != nil {
					return nil, err
				}
				ce.vars[p] = v
			default:
				ce.vars[p] = nil
			}
		}
		if len(f.params) == 0 && len(args) == 1 {
			ce.vars["it"] = args[0]
		}
		err := in.execBlock(f.body, ce)
		if r, ok := err.(*returnErr); ok {
			return r.v, nil
		}
		return nil, err
	case builtinFn:
		return f(in, args)
	case unknown:
		in.skipClosures(args, f.why+"()")
		return unknown{why: f.why + "()"}, nil
	}
	return unknown{why: fmt.Sprintf("call of %T", fn)}, nil
}

func (in *interp) methodCall(x *callExpr, p *propExpr, e *env) (value, error) {
	// Class.method: Thread.sleep, logger.info, ...
	if id, ok := p.x.(*identExpr); ok {
		if _, defined := e.lookup(id.name); !defined {
			switch id.name {
			case "Thread":
				if p.name == "start" || p.name == "startDaemon" {
					// Thread.start { ... }: run the body now; join() returns at once.
					args, err := in.evalArgs(x.args, e)
					if err != nil {
						return nil, err
					}
					if len(args) > 0 {
						if _, err := in.apply(args[len(args)-1], nil); err != nil {
							return nil, err
						}
					}
					return threadVal{}, nil
				}
				return nil, nil
			case "logger", "log", "System":
				if p.name == "currentTimeMillis" || p.name == "nanoTime" {
					return int64(0), nil
				}
				if id.name != "System" || p.name == "out" {
					return nil, nil
				}
			case "Math":
				args, err := in.evalArgs(x.args, e)
				if err != nil {
					return nil, err
				}
				if v, ok := mathCall(p.name, args); ok {
					return v, nil
				}
			case "UUID":
				in.uuids++
				return fmt.Sprintf("00000000-0000-4000-8000-%012d", in.uuids), nil
			}
		}
	}
	o, err := in.eval(p.x, e)
	if err != nil {
		return nil, err
	}
	if o == nil && p.safe {
		return nil, nil
	}
	args, err := in.evalArgs(x.args, e)
	if err != nil {
		return nil, err
	}
	if u, ok := isUnknown(o); ok {
		in.skipClosures(args, u.why+"."+p.name+"()")
		return unknown{why: u.why + "." + p.name + "()"}, nil
	}
	if m, ok := o.(*gmap); ok { // a closure stored in a map, or a map method
		switch f := m.m[p.name].(type) {
		case *closureVal, builtinFn:
			return in.apply(f, args)
		}
	}
	v, err := in.method(o, p.name, args)
	if u, ok := isUnknown(v); ok && err == nil {
		in.skipClosures(args, u.why)
	}
	return v, err
}

// skipClosures counts the checks of closures passed to something not
// modelled as skipped: they never run.
func (in *interp) skipClosures(args []value, why string) {
	for _, a := range args {
		if c, ok := a.(*closureVal); ok {
			if n := countChecks(c.body); n > 0 {
				if in.inCheck {
					continue
				}
				in.r.skipChecks(n, why)
			}
		}
	}
}

// threadVal is a Thread.start whose body already ran.
type threadVal struct{}

func argInt(args []value, i int) (int64, bool) {
	if i >= len(args) {
		return 0, false
	}
	n, ok := args[i].(int64)
	return n, ok
}

func argStr(args []value, i int) string {
	if i >= len(args) {
		return ""
	}
	return gstr(args[i])
}

// method runs the Groovy/JDK methods the suites call on values.
func (in *interp) method(o value, name string, args []value) (value, error) {
	for _, a := range args {
		if u, ok := isUnknown(a); ok {
			return u, nil
		}
	}
	switch name {
	case "toString":
		return gstr(o), nil
	case "equals":
		return gequal(o, args[0]), nil
	case "getClass":
		return unknown{why: "getClass"}, nil
	}
	if _, ok := o.(randomVal); ok {
		if v, ok := randomMethod(name); ok {
			return v, nil
		}
	}
	switch o := o.(type) {
	case *closureVal:
		if name == "call" { // c.call(a, b) is c(a, b)
			return in.apply(o, args)
		}
	case builtinFn:
		if name == "call" {
			return in.apply(o, args)
		}
	case string:
		return stringMethod(o, name, args)
	case *glist:
		return in.listMethod(o, name, args)
	case *gmap:
		switch name {
		case "get":
			return o.m[argStr(args, 0)], nil
		case "containsKey":
			_, ok := o.m[argStr(args, 0)]
			return ok, nil
		case "put":
			o.put(argStr(args, 0), args[1])
			return nil, nil
		case "size":
			return int64(len(o.keys)), nil
		case "isEmpty":
			return len(o.keys) == 0, nil
		case "keySet":
			l := &glist{}
			for _, k := range o.keys {
				l.v = append(l.v, k)
			}
			return l, nil
		case "each":
			if len(args) == 1 {
				return nil, in.eachOf(o, func(v value) error {
					en := v.(*gmap)
					c, _ := args[0].(*closureVal)
					if c != nil && len(c.params) == 2 {
						_, err := in.apply(c, []value{en.m["key"], en.m["value"]})
						return err
					}
					_, err := in.apply(args[0], []value{v})
					return err
				}, 0)
			}
		}
	case int64:
		switch name {
		case "intValue", "longValue", "toInteger", "toLong":
			return o, nil
		case "times":
			for i := int64(0); i < o && i < 100000; i++ {
				if _, err := in.apply(args[0], []value{i}); err != nil {
					return nil, err
				}
			}
			return nil, nil
		}
	case float64:
		switch name {
		case "intValue", "longValue":
			return int64(o), nil
		case "doubleValue":
			return o, nil
		}
	case *gexception:
		switch name {
		case "getMessage", "getLocalizedMessage":
			if _, msg, ok := strings.Cut(o.msg, ": "); ok {
				return msg, nil
			}
			return o.msg, nil
		case "printStackTrace":
			return nil, nil
		case "getCause":
			return unknown{why: "getCause"}, nil
		}
	case bool:
		if name == "booleanValue" {
			return o, nil
		}
	case threadVal:
		if name == "join" {
			return nil, nil
		}
	case nil:
		return nil, throwf("java.lang.NullPointerException: Cannot invoke method %s() on null object", name)
	}
	return unknown{why: fmt.Sprintf("%T.%s()", o, name)}, nil
}

func stringMethod(s, name string, args []value) (value, error) {
	switch name {
	case "toLowerCase":
		return strings.ToLower(s), nil
	case "toUpperCase":
		return strings.ToUpper(s), nil
	case "contains":
		return strings.Contains(s, argStr(args, 0)), nil
	case "startsWith":
		return strings.HasPrefix(s, argStr(args, 0)), nil
	case "endsWith":
		return strings.HasSuffix(s, argStr(args, 0)), nil
	case "equalsIgnoreCase":
		return strings.EqualFold(s, argStr(args, 0)), nil
	case "trim", "strip":
		return strings.TrimSpace(s), nil
	case "size", "length":
		return int64(len([]rune(s))), nil
	case "isEmpty":
		return s == "", nil
	case "indexOf":
		return int64(strings.Index(s, argStr(args, 0))), nil
	case "replace", "replaceAll":
		if name == "replaceAll" {
			return unknown{why: "replaceAll"}, nil
		}
		return strings.ReplaceAll(s, argStr(args, 0), argStr(args, 1)), nil
	case "split":
		sep := argStr(args, 0)
		if strings.ContainsAny(sep, `\[]()*+?.|^$`) && sep != "," && sep != "\t" {
			return unknown{why: "split regex"}, nil
		}
		l := &glist{}
		for _, p := range strings.Split(s, sep) {
			l.v = append(l.v, p)
		}
		return l, nil
	case "toInteger", "toLong", "intValue":
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return nil, throwf("java.lang.NumberFormatException: For input string: \"%s\"", s)
		}
		return n, nil
	case "toDouble", "toFloat":
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return nil, throwf("java.lang.NumberFormatException: For input string: \"%s\"", s)
		}
		return f, nil
	case "substring":
		a, ok1 := argInt(args, 0)
		b, ok2 := argInt(args, 1)
		if !ok2 {
			b, ok2 = int64(len(s)), true
		}
		if !ok1 || a < 0 || b > int64(len(s)) || a > b {
			return unknown{why: "substring"}, nil
		}
		return s[a:b], nil
	case "getBytes":
		return s, nil
	case "format":
		return unknown{why: "format"}, nil
	}
	return unknown{why: "String." + name + "()"}, nil
}

func (in *interp) listMethod(l *glist, name string, args []value) (value, error) {
	switch name {
	case "size":
		return int64(len(l.v)), nil
	case "isEmpty":
		return len(l.v) == 0, nil
	case "get", "getAt":
		if len(args) == 1 {
			return index(l, args[0])
		}
	case "contains":
		return contains(l, args[0]), nil
	case "add", "push", "leftShift":
		l.v = append(l.v, args[0])
		return true, nil
	case "first":
		return index(l, int64(0))
	case "last":
		return index(l, int64(-1))
	case "join":
		parts := make([]string, len(l.v))
		for i, v := range l.v {
			parts[i] = gstr(v)
		}
		return strings.Join(parts, argStr(args, 0)), nil
	case "sort":
		sortValues(l.v)
		return l, nil
	case "each", "eachWithIndex", "collect", "findAll", "find", "any", "every":
		return in.listIter(l, name, args)
	case "flatten":
		out := &glist{}
		var add func(v value)
		add = func(v value) {
			if sub, ok := v.(*glist); ok {
				for _, e := range sub.v {
					add(e)
				}
				return
			}
			out.v = append(out.v, v)
		}
		add(l)
		return out, nil
	}
	return unknown{why: "List." + name + "()"}, nil
}

func (in *interp) listIter(l *glist, name string, args []value) (value, error) {
	if len(args) != 1 {
		return unknown{why: "List." + name}, nil
	}
	out := &glist{}
	for i, v := range l.v {
		a := []value{v}
		if name == "eachWithIndex" {
			a = append(a, int64(i))
		}
		r, err := in.apply(args[0], a)
		if _, ok := err.(*breakErr); ok {
			break
		}
		if err != nil {
			return nil, err
		}
		if u, ok := isUnknown(r); ok && name != "each" && name != "eachWithIndex" {
			return u, nil
		}
		switch name {
		case "collect":
			out.v = append(out.v, r)
		case "findAll":
			if truthy(r) {
				out.v = append(out.v, v)
			}
		case "find":
			if truthy(r) {
				return v, nil
			}
		case "any":
			if truthy(r) {
				return true, nil
			}
		case "every":
			if !truthy(r) {
				return false, nil
			}
		}
	}
	switch name {
	case "each", "eachWithIndex":
		return l, nil
	case "find":
		return nil, nil
	case "any":
		return false, nil
	case "every":
		return true, nil
	}
	return out, nil
}

// parseJSON is the framework's parseJson (JsonSlurper).
func parseJSON(s string) (value, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, throwf("groovy.json.JsonException: %v", err)
	}
	return fromJSON(v), nil
}
