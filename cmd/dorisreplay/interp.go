package main

import (
	"errors"
	"fmt"
	"strings"
)

type env struct {
	vars   map[string]value
	parent *env
}

func newEnv(parent *env) *env { return &env{vars: map[string]value{}, parent: parent} }

func (e *env) lookup(name string) (value, bool) {
	for ; e != nil; e = e.parent {
		if v, ok := e.vars[name]; ok {
			return v, true
		}
	}
	return nil, false
}

func (e *env) set(name string, v value) {
	for s := e; s != nil; s = s.parent {
		if _, ok := s.vars[name]; ok {
			s.vars[name] = v
			return
		}
	}
	e.vars[name] = v // Groovy's script binding: assignment defines
}

// Control flow of the interpreter travels as errors.
type (
	throwErr  struct{ exc *gexception }
	returnErr struct{ v value }
	breakErr  struct{}
	contErr   struct{}
	// skipErr: the running check depends on something not modelled.
	skipErr struct{ why string }
	// pollStopErr ends a while loop whose body branched on something not
	// modelled: the loop polls for a state, and its checks are counted
	// (skipped) once, not once per round.
	pollStopErr struct{}
)

func (e *throwErr) Error() string    { return e.exc.msg }
func (e *returnErr) Error() string   { return "return" }
func (e *breakErr) Error() string    { return "break" }
func (e *contErr) Error() string     { return "continue" }
func (e *skipErr) Error() string     { return "skipped: " + e.why }
func (e *pollStopErr) Error() string { return "poll stopped" }

func throwf(format string, args ...any) error {
	return &throwErr{&gexception{msg: fmt.Sprintf(format, args...)}}
}

// interp runs one suite.
type interp struct {
	r *runner
	// delegates are the builtins of the enclosing streamLoad/test block.
	delegates []map[string]builtinFn
	// tryDepth > 0: a throw goes to a catch; at 0 a failing statement is
	// recorded and the suite goes on.
	tryDepth int
	// inCheck: inside a streamLoad check closure or a test block, where
	// a failed assertion ends the check.
	inCheck bool
	steps   int
	// uuids counts UUID.randomUUID() calls: each gives a new value, as
	// suites make labels unique with it.
	uuids int64
	// whileDepth > 0: inside a while loop's body.
	whileDepth int
}

// maxSteps bounds a suite's statements (loops of thousands of loads).
const maxSteps = 200000

func (in *interp) execBlock(stmts []node, e *env) error {
	for _, s := range stmts {
		if err := in.exec(s, e); err != nil {
			var te *throwErr
			if errors.As(err, &te) && in.tryDepth == 0 && !in.inCheck {
				in.r.stmtError(te.exc.msg)
				failed := unknown{why: errorKey(te.exc.msg), failed: true}
				switch s := s.(type) {
				case *defStmt:
					e.vars[s.name] = failed
				case *assignStmt:
					if id, ok := s.target.(*identExpr); ok {
						e.set(id.name, failed)
					}
				}
				continue
			}
			var se *skipErr
			if errors.As(err, &se) && !in.inCheck {
				in.r.note("unsupported: " + se.why)
				continue
			}
			return err
		}
	}
	return nil
}

func (in *interp) exec(s node, e *env) error {
	in.steps++
	if in.steps > maxSteps {
		return &skipErr{"step limit"}
	}
	switch s := s.(type) {
	case *exprStmt:
		v, err := in.eval(s.x, e)
		if err != nil {
			return err
		}
		if u, ok := isUnknown(v); ok && !in.inCheck {
			in.r.note("unsupported: " + u.why)
		}
		return nil
	case *defStmt:
		var v value
		if s.x != nil {
			var err error
			if v, err = in.eval(s.x, e); err != nil {
				return err
			}
		}
		if c, ok := v.(*closureVal); ok && c.env == e { // a method may call itself
			c.env = e
		}
		e.vars[s.name] = v
		return nil
	case *assignStmt:
		return in.assign(s, e)
	case *ifStmt:
		c, err := in.eval(s.cond, e)
		if err != nil {
			return err
		}
		if u, ok := isUnknown(c); ok {
			if in.inCheck {
				return &skipErr{u.why}
			}
			in.r.skipChecks(countChecks(s.then)+countChecks(s.els_), "if on "+u.why)
			if in.whileDepth > 0 {
				return &pollStopErr{}
			}
			return nil
		}
		if truthy(c) {
			return in.execBlock(s.then, newEnv(e))
		}
		return in.execBlock(s.els_, newEnv(e))
	case *forStmt:
		return in.execFor(s, e)
	case *forInStmt:
		l, err := in.eval(s.list, e)
		if err != nil {
			return err
		}
		return in.eachOf(l, func(v value) error {
			le := newEnv(e)
			le.vars[s.name] = v
			return in.execBlock(s.body, le)
		}, countChecks(s.body))
	case *tryStmt:
		return in.execTry(s, e)
	case *returnStmt:
		var v value
		if s.x != nil {
			var err error
			if v, err = in.eval(s.x, e); err != nil {
				return err
			}
		}
		return &returnErr{v}
	case *throwStmt:
		v, err := in.eval(s.x, e)
		if err != nil {
			return err
		}
		if x, ok := v.(*gexception); ok {
			return &throwErr{x}
		}
		return &throwErr{&gexception{msg: gstr(v)}}
	case *breakStmt:
		return &breakErr{}
	case *contStmt:
		return &contErr{}
	case *blockStmt:
		return in.execBlock(s.body, newEnv(e))
	case *unsupportedStmt:
		in.r.note("syntax: " + trunc(s.text, 60))
		if in.inCheck {
			return &skipErr{"syntax: " + trunc(s.text, 60)}
		}
		in.r.skipChecks(s.checks, "syntax: "+trunc(s.text, 60))
		return nil
	}
	return fmt.Errorf("BUG: statement %T", s)
}

func (in *interp) execFor(s *forStmt, e *env) error {
	if s.maxIter > 0 {
		in.whileDepth++
		defer func() { in.whileDepth-- }()
	}
	err := in.execLoop(s, e)
	if _, ok := err.(*pollStopErr); ok && s.maxIter > 0 {
		return nil
	}
	return err
}

func (in *interp) execLoop(s *forStmt, e *env) error {
	le := newEnv(e)
	if s.init != nil {
		if err := in.exec(s.init, le); err != nil {
			return err
		}
	}
	for i := 0; ; i++ {
		c, err := in.eval(s.cond, le)
		if err != nil {
			return err
		}
		if u, ok := isUnknown(c); ok {
			in.r.skipChecks(countChecks(s.body), "for on "+u.why)
			return nil
		}
		if !truthy(c) {
			return nil
		}
		if i > 100000 || (s.maxIter > 0 && i >= s.maxIter) {
			return &skipErr{"loop too long"}
		}
		err = in.execBlock(s.body, newEnv(le))
		if _, ok := err.(*breakErr); ok {
			return nil
		}
		if _, ok := err.(*contErr); !ok && err != nil {
			return err
		}
		if s.post == nil {
			continue
		}
		if err := in.exec(s.post, le); err != nil {
			return err
		}
	}
}

// eachOf runs f for each element of a list, map entry or range.
func (in *interp) eachOf(l value, f func(value) error, checks int) error {
	var elems []value
	switch l := l.(type) {
	case *glist:
		elems = l.v
	case *gmap:
		for _, k := range l.keys {
			en := newMap()
			en.put("key", k)
			en.put("value", l.m[k])
			elems = append(elems, en)
		}
	case unknown:
		if in.inCheck {
			return &skipErr{l.why}
		}
		in.r.skipChecks(checks, "loop over "+l.why)
		return nil
	default:
		return &skipErr{fmt.Sprintf("loop over %T", l)}
	}
	for _, v := range elems {
		err := f(v)
		if _, ok := err.(*breakErr); ok {
			return nil
		}
		if _, ok := err.(*contErr); !ok && err != nil {
			return err
		}
	}
	return nil
}

func (in *interp) execTry(s *tryStmt, e *env) error {
	if s.hasCatch {
		in.tryDepth++
	}
	err := in.execBlock(s.body, newEnv(e))
	if s.hasCatch {
		in.tryDepth--
	}
	var te *throwErr
	if s.hasCatch && errors.As(err, &te) {
		ce := newEnv(e)
		ce.vars[s.catchVar] = te.exc
		err = in.execBlock(s.catchBody, ce)
	}
	if len(s.finallyBdy) > 0 {
		if ferr := in.execBlock(s.finallyBdy, newEnv(e)); ferr != nil && err == nil {
			err = ferr
		}
	}
	return err
}

func (in *interp) assign(s *assignStmt, e *env) error {
	var v value
	if s.x != nil {
		var err error
		if v, err = in.eval(s.x, e); err != nil {
			return err
		}
	}
	if s.op != "=" {
		old, err := in.eval(s.target, e)
		if err != nil {
			return err
		}
		switch s.op {
		case "++":
			v, err = arith("+", old, int64(1))
		case "--":
			v, err = arith("-", old, int64(1))
		case "+=":
			v, err = arith("+", old, v)
		case "-=":
			v, err = arith("-", old, v)
		}
		if err != nil {
			return err
		}
	}
	switch t := s.target.(type) {
	case *identExpr:
		e.set(t.name, v)
		return nil
	case *indexExpr:
		c, err := in.eval(t.x, e)
		if err != nil {
			return err
		}
		k, err := in.eval(t.idx, e)
		if err != nil {
			return err
		}
		switch c := c.(type) {
		case *gmap:
			c.put(gstr(k), v)
			return nil
		case *glist:
			if i, ok := k.(int64); ok && i >= 0 && int(i) < len(c.v) {
				c.v[i] = v
				return nil
			}
		}
	case *propExpr:
		c, err := in.eval(t.x, e)
		if err != nil {
			return err
		}
		if m, ok := c.(*gmap); ok {
			m.put(t.name, v)
			return nil
		}
	}
	return &skipErr{"assignment target"}
}

// countChecks is how many checks statements hold, for skipping them.
func countChecks(stmts []node) int {
	n := 0
	var walk func(x node)
	walk = func(x node) {
		switch x := x.(type) {
		case *exprStmt:
			walk(x.x)
		case *defStmt:
			walk(x.x)
		case *assignStmt:
			walk(x.x)
		case *ifStmt:
			n += countChecks(x.then) + countChecks(x.els_)
		case *forStmt:
			n += countChecks(x.body)
		case *forInStmt:
			n += countChecks(x.body)
		case *tryStmt:
			n += countChecks(x.body) + countChecks(x.catchBody) + countChecks(x.finallyBdy)
		case *blockStmt:
			n += countChecks(x.body)
		case *unsupportedStmt:
			n += x.checks
		case *callExpr:
			if id, ok := x.fn.(*identExpr); ok {
				name := id.name
				if isCheckName(name) {
					n++
					return
				}
			}
			walk(x.fn)
			for _, a := range x.args {
				walk(a)
			}
		case *closureExpr:
			n += countChecks(x.body)
		case *propExpr:
			walk(x.x)
		}
	}
	for _, s := range stmts {
		walk(s)
	}
	return n
}

func isCheckName(name string) bool {
	return strings.HasPrefix(name, "qt_") || strings.HasPrefix(name, "order_qt_") || name == "streamLoad" ||
		name == "test" || strings.HasPrefix(name, "assert")
}

func trunc(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
