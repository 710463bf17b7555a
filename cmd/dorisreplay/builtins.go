package main

import (
	"fmt"
	"strings"
)

// builtin resolves a function name: the enclosing block's delegate
// first (streamLoad's table/set/file, test's sql/exception), then the
// framework's suite methods.
func (in *interp) builtin(name string) builtinFn {
	for i := len(in.delegates) - 1; i >= 0; i-- {
		if f, ok := in.delegates[i][name]; ok {
			return f
		}
	}
	switch name {
	case "sql", "createMV":
		// createMV (the framework's CreateMVAction) runs the statement and
		// waits for its job; loadgw's CREATE MATERIALIZED VIEW is done
		// when it returns.
		return func(in *interp, args []value) (value, error) {
			if len(args) != 1 {
				return unknown{why: "sql arity"}, nil
			}
			if u, ok := isUnknown(args[0]); ok {
				return nil, &skipErr{"sql text uses " + u.why}
			}
			return in.r.sqlRows(argStr(args, 0))
		}
	case "sql_return_maparray":
		return func(in *interp, args []value) (value, error) {
			if len(args) != 1 {
				return unknown{why: "sql arity"}, nil
			}
			if u, ok := isUnknown(args[0]); ok {
				return nil, &skipErr{"sql text uses " + u.why}
			}
			return in.r.sqlMaps(argStr(args, 0))
		}
	case "parseJson":
		return func(in *interp, args []value) (value, error) {
			if len(args) != 1 {
				return unknown{why: "parseJson"}, nil
			}
			s, ok := args[0].(string)
			if !ok {
				return unknown{why: "parseJson of non-string"}, nil
			}
			return parseJSON(s)
		}
	case "assertEquals", "assertTrue", "assertFalse", "assertNull", "assertNotNull", "assertNotEquals":
		return func(in *interp, args []value) (value, error) { return nil, in.assert(name, args) }
	case "connect":
		// connect(user, password, url) { ... }: the suites connect as root
		// to the same frontend. The framework opens a new JDBC connection,
		// so the block runs in a session of its own (session variables set
		// in it, such as show_hidden_columns, end with it), starting on the
		// suite's database; the suite's session resumes after it.
		return func(in *interp, args []value) (value, error) {
			if len(args) == 0 {
				return unknown{why: "connect"}, nil
			}
			outer := in.r.sess
			in.r.sess = in.r.srv.eng.NewSession(outer.DB())
			defer func() { in.r.sess = outer }()
			return in.apply(args[len(args)-1], nil)
		}
	case "isCloudMode", "isClusterKeyEnabled", "isGroupCommitMode":
		return func(*interp, []value) (value, error) { return false, nil }
	case "sleep", "println", "print", "sync", "waitForSchemaChangeDone":
		return func(*interp, []value) (value, error) { return nil, nil }
	}
	return nil
}

// assert runs a JUnit assertion. Inside a check a failure ends the check;
// elsewhere each assertion is a check of its own.
func (in *interp) assert(name string, args []value) error {
	for _, a := range args {
		if u, ok := isUnknown(a); ok {
			if u.failed {
				if in.inCheck {
					return &throwErr{&gexception{msg: u.why}}
				}
				in.r.fail(u.why)
				return nil
			}
			if in.inCheck {
				return &skipErr{u.why}
			}
			in.r.skip("assert on " + u.why)
			return nil
		}
	}
	if len(args) > 0 && (name == "assertTrue" || name == "assertFalse" || name == "assertNull" || name == "assertNotNull") {
		if _, isMsg := args[0].(string); isMsg && len(args) == 2 { // assertTrue("message", cond)
			args = args[1:]
		}
	}
	var msg string
	switch name {
	case "assertEquals", "assertNotEquals":
		if len(args) == 3 { // assertEquals("message", expected, actual)
			args = args[1:]
		}
		if len(args) != 2 {
			return &skipErr{name + " arity"}
		}
		eq := gequal(args[0], args[1])
		if name == "assertEquals" && !eq {
			msg = fmt.Sprintf("assertEquals: expected <%s> but was <%s>", trunc(gstr(args[0]), 120), trunc(gstr(args[1]), 200))
		}
		if name == "assertNotEquals" && eq {
			msg = fmt.Sprintf("assertNotEquals: both <%s>", trunc(gstr(args[0]), 120))
		}
	case "assertTrue", "assertFalse":
		if len(args) < 1 {
			return &skipErr{name + " arity"}
		}
		if truthy(args[0]) != (name == "assertTrue") {
			msg = name + " failed"
		}
	case "assertNull", "assertNotNull":
		if len(args) < 1 {
			return &skipErr{name + " arity"}
		}
		if (args[0] == nil) != (name == "assertNull") {
			msg = name + " failed: " + trunc(gstr(args[0]), 120)
		}
	}
	if in.inCheck {
		if msg != "" {
			return &throwErr{&gexception{msg: "java.lang.AssertionError: " + msg}}
		}
		return nil
	}
	if msg != "" {
		in.r.fail(msg)
		return nil
	}
	in.r.pass()
	return nil
}

// quickTest is qt_tag / order_qt_tag: the query's rows against the next
// block of the tag in the .out file.
func (in *interp) quickTest(name string, args []value) error {
	order := strings.HasPrefix(name, "order_qt_")
	tag := strings.TrimPrefix(strings.TrimPrefix(name, "order_"), "qt_")
	want, haveBlock := in.r.out.next(tag)
	if len(args) != 1 {
		in.r.skip(name + " arity")
		return nil
	}
	if u, ok := isUnknown(args[0]); ok {
		in.r.skip("query text uses " + u.why)
		return nil
	}
	if !haveBlock {
		in.r.skip("no .out block for tag " + tag)
		return nil
	}
	in.r.inCheckQuery = true
	got, err := in.r.queryRows(gstr(args[0]))
	in.r.inCheckQuery = false
	if err != nil {
		in.r.fail(errorKey(err.Error()))
		return nil
	}
	if msg := compareRows(want, got, order); msg != "" {
		if t := in.r.readsUnloaded(gstr(args[0])); t != "" {
			// Not loadgw's answer to judge: rows the suite expects come
			// from a load the interpreter could not run.
			in.r.skip("query on " + t + " after a skipped stream load")
			return nil
		}
		in.r.failDetail("result differs", fmt.Sprintf("%s: %s\n  sql: %s", name, msg, trunc(gstr(args[0]), 300)))
		return nil
	}
	in.r.emitCheck(name, gstr(args[0]), want, order)
	in.r.pass()
	return nil
}

// withDelegate runs a closure body with block-specific builtins, as the
// check-building closures of streamLoad and test.
func (in *interp) withDelegate(c *closureExpr, e *env, d map[string]builtinFn) error {
	in.delegates = append(in.delegates, d)
	saved := in.inCheck
	in.inCheck = true
	err := in.execBlock(c.body, newEnv(e))
	in.inCheck = saved
	in.delegates = in.delegates[:len(in.delegates)-1]
	return err
}

// runCheck runs a check closure and records its outcome.
func (in *interp) runCheck(f func() error) {
	saved := in.inCheck
	in.inCheck = true
	err := f()
	in.inCheck = saved
	in.recordCheck(err)
}

func (in *interp) recordCheck(err error) {
	switch e := err.(type) {
	case nil:
		in.r.pass()
	case *skipErr:
		in.r.skip(e.why)
	case *throwErr:
		in.r.failDetail(errorKey(e.exc.msg), e.exc.msg)
	case *returnErr:
		in.r.pass()
	default:
		in.r.fail(err.Error())
	}
}
