package main

import (
	"fmt"
	"strings"
)

// loadSpec is what a streamLoad { } block asks for.
type loadSpec struct {
	db, table string
	headers   [][2]string
	file      string
	body      *string
	check     value
	twoPC     bool
}

func (in *interp) streamLoad(c *closureExpr, e *env) error {
	spec := &loadSpec{db: in.r.db}
	str := func(set func(string)) builtinFn {
		return func(in *interp, args []value) (value, error) {
			if len(args) != 1 {
				return nil, &skipErr{"streamLoad arity"}
			}
			if u, ok := isUnknown(args[0]); ok {
				return nil, &skipErr{u.why}
			}
			if cl, ok := args[0].(*closureVal); ok {
				v, err := in.apply(cl, nil)
				if err != nil {
					return nil, err
				}
				args[0] = v
			}
			set(gstr(args[0]))
			return nil, nil
		}
	}
	ignore := func(*interp, []value) (value, error) { return nil, nil }
	d := map[string]builtinFn{
		"table": str(func(s string) { spec.table = s }),
		"db":    str(func(s string) { spec.db = s }),
		"file":  str(func(s string) { spec.file = s }),
		"inputText": str(func(s string) {
			spec.body = &s
		}),
		"set": func(in *interp, args []value) (value, error) {
			if len(args) != 2 {
				return nil, &skipErr{"set arity"}
			}
			for _, a := range args {
				if u, ok := isUnknown(a); ok {
					return nil, &skipErr{u.why}
				}
			}
			spec.headers = append(spec.headers, [2]string{gstr(args[0]), gstr(args[1])})
			return nil, nil
		},
		"unset": func(in *interp, args []value) (value, error) {
			k := argStr(args, 0)
			out := spec.headers[:0]
			for _, h := range spec.headers {
				if !strings.EqualFold(h[0], k) {
					out = append(out, h)
				}
			}
			spec.headers = out
			return nil, nil
		},
		"inputStream": func(in *interp, args []value) (value, error) {
			if len(args) == 1 {
				if s, ok := args[0].(inputStream); ok {
					spec.body = &s.data
					return nil, nil
				}
			}
			return nil, &skipErr{"inputStream"}
		},
		"check": func(in *interp, args []value) (value, error) {
			if len(args) == 1 {
				spec.check = args[0]
			}
			return nil, nil
		},
		"twoPhaseCommit": func(in *interp, args []value) (value, error) {
			spec.twoPC = len(args) == 1 && truthy(args[0])
			return nil, nil
		},
		"time": ignore, "timeout": ignore, "directToBe": ignore, "enableUtf8Encoding": ignore,
		"retryIfHttpError": ignore, "isCloud": ignore, "connectTimeout": ignore, "socketTimeout": ignore,
		"sql": func(*interp, []value) (value, error) { return nil, &skipErr{"http_stream sql"} },
	}
	if err := in.withDelegate(c, e, d); err != nil {
		if _, ok := err.(*skipErr); ok {
			in.r.skippedLoad(spec.table)
		}
		in.recordCheck(err)
		return nil
	}
	body, err := in.r.loadBody(spec)
	if err != nil {
		in.r.skippedLoad(spec.table)
		in.r.skip(err.Error())
		return nil
	}
	resp, err := in.r.streamLoad(spec, body)
	if err != nil {
		in.r.fail("stream load request: " + err.Error())
		return nil
	}
	if spec.check == nil {
		in.recordCheck(defaultLoadCheck(resp))
		return nil
	}
	saved := in.inCheck
	in.inCheck = true
	_, err = in.apply(spec.check, []value{resp, nil, int64(0), int64(0)})
	in.inCheck = saved
	if te, ok := err.(*throwErr); ok {
		in.r.failDetail(errorKey(te.exc.msg), te.exc.msg+"\n  response: "+trunc(resp, 400))
		return nil
	}
	in.recordCheck(err)
	return nil
}

// defaultLoadCheck is the framework's check of a streamLoad without a
// check closure: Status Success and every row loaded.
func defaultLoadCheck(resp string) error {
	v, err := parseJSON(resp)
	if err != nil {
		return err
	}
	m, ok := v.(*gmap)
	if !ok {
		return throwf("stream load answer is not an object")
	}
	if !strings.EqualFold(gstr(m.m["Status"]), "Success") {
		return throwf("java.lang.IllegalStateException: Stream load failed: %s", gstr(m.m["Message"]))
	}
	if !gequal(m.m["NumberTotalRows"], m.m["NumberLoadedRows"]) {
		return throwf("java.lang.IllegalStateException: Stream load rows mismatch: total %s loaded %s",
			gstr(m.m["NumberTotalRows"]), gstr(m.m["NumberLoadedRows"]))
	}
	return nil
}

// testBlock is test { sql ...; exception ... / result ... / check ... }.
func (in *interp) testBlock(c *closureExpr, e *env) error {
	var (
		stmt      *string
		exception *string
		rowNum    = int64(-1)
		result    value
		check     value
	)
	d := map[string]builtinFn{
		"sql": func(in *interp, args []value) (value, error) {
			if u, ok := isUnknown(args[0]); ok {
				return nil, &skipErr{u.why}
			}
			s := argStr(args, 0)
			stmt = &s
			return nil, nil
		},
		"exception": func(in *interp, args []value) (value, error) {
			s := argStr(args, 0)
			exception = &s
			return nil, nil
		},
		"rowNum": func(in *interp, args []value) (value, error) {
			n, ok := argInt(args, 0)
			if !ok {
				return nil, &skipErr{"rowNum"}
			}
			rowNum = n
			return nil, nil
		},
		"result": func(in *interp, args []value) (value, error) {
			result = args[0]
			return nil, nil
		},
		"check": func(in *interp, args []value) (value, error) {
			check = args[0]
			return nil, nil
		},
		"time": func(*interp, []value) (value, error) { return nil, nil },
	}
	if err := in.withDelegate(c, e, d); err != nil {
		in.recordCheck(err)
		return nil
	}
	if stmt == nil {
		in.r.skip("test without sql")
		return nil
	}
	rows, err := in.r.sqlRows(*stmt)
	var exc value
	if err != nil {
		te, ok := err.(*throwErr)
		if !ok {
			return err
		}
		exc = te.exc
		rows = nil
	}
	in.runCheck(func() error {
		if check != nil {
			var r value = rows
			if rows == nil {
				r = nil
			}
			_, err := in.apply(check, []value{r, exc, int64(0), int64(0)})
			return err
		}
		if exception != nil || exc != nil {
			msg := ""
			if exc != nil {
				msg = exc.(*gexception).msg
			}
			if exception == nil || exc == nil || !strings.Contains(msg, *exception) {
				want := "<none>"
				if exception != nil {
					want = *exception
				}
				if exc == nil {
					return throwf("expected exception containing %q, but the statement succeeded", want)
				}
				return &throwErr{exc.(*gexception)}
			}
		}
		if rowNum >= 0 && rows != nil && int64(len(rows.(*glist).v)) != rowNum {
			return throwf("RowNum: expected %d but was %d", rowNum, len(rows.(*glist).v))
		}
		if result != nil {
			if !gequal(stringCells(result), stringCells(rows)) {
				return throwf("result: expected %s but was %s", trunc(gstr(result), 100), trunc(gstr(rows), 100))
			}
		}
		return nil
	})
	return nil
}

// stringCells turns a list of rows into lists of cell strings, so a
// test's result([[1, "a"]]) compares with rows of any cell type.
func stringCells(v value) value {
	l, ok := v.(*glist)
	if !ok {
		return gstr(v)
	}
	out := &glist{}
	for _, e := range l.v {
		out.v = append(out.v, stringCells(e))
	}
	return out
}

var _ = fmt.Sprintf
