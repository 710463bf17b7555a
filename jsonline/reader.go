package jsonline

import (
	"io"
)

// Reader reads rows of wanted columns from a Stream Load JSON body. It is
// not safe for concurrent use.
type Reader struct {
	opts  Options
	cols  []string
	match *keyMatcher
	paths []jsonPath // nil: keys are matched by column name
	root  jsonPath   // nil: no json_root
	// full: paths or json_root only look at part of each document, so the
	// first-stage checks run over every document up front, as in Doris.
	full bool

	lines *lineSource // ReadByLine
	body  io.Reader   // whole-body mode; nil once read

	buf     []byte // unescaped strings of the current row
	keyBuf  []byte
	top     objCursor // jsonpaths: the row object
	rootCur objCursor // json_root lookups
	arr     arrayState
	pending []pending // row errors of a dropped array document, in order
	scratch []Field   // rows of a dry run
	// pad is Doris's simdjson padding buffer when reading by line: each
	// line is copied to its start and what lies beyond stays from longer
	// earlier lines. after is the byte just past the current document
	// there (0 when no earlier line reached it), which simdjson's root
	// check reads (see unbalancedRoot).
	pad   []byte
	after byte
}

type pending struct {
	raw    []byte
	reason string
}

// NewReader returns a reader of rows for the wanted columns. Without
// jsonpaths a column takes the value of the object key with exactly its name
// (case-sensitive, as Doris for stream load); with jsonpaths the i-th path
// fills the i-th column and columns beyond the paths are absent. An invalid
// jsonpaths or json_root is reported here as an *Error.
func NewReader(r io.Reader, columns []string, opts Options) (*Reader, error) {
	opts.EnsureDefaults()
	rd := &Reader{
		opts:    opts,
		cols:    columns,
		match:   newKeyMatcher(columns),
		scratch: make([]Field, len(columns)),
	}
	var err error
	if opts.JSONPaths != "" {
		if rd.paths, err = parseJSONPaths(opts.JSONPaths); err != nil {
			return nil, err
		}
	}
	if opts.JSONRoot != "" {
		if rd.root, err = parsePath(opts.JSONRoot); err != nil {
			return nil, err
		}
		if rd.root == nil {
			rd.root = jsonPath{}
		}
	}
	rd.full = rd.paths != nil || rd.root != nil
	if opts.ReadByLine {
		rd.lines = newLineSource(r, opts.MaxLineBytes)
	} else {
		rd.body = r
	}
	return rd, nil
}

// Next fills dst (REQUIRES: len(dst) == number of columns) with the next
// row and returns the row's raw JSON text (the object, up to the next
// token), valid until the next call. At the end it returns io.EOF.
//
// A *RowError is a row or document Doris filters: count it, log it with the
// returned raw text as the "src line" (possibly empty, as in Doris) and call
// Next again. Any other error fails the load.
func (r *Reader) Next(dst []Field) ([]byte, error) {
	for {
		if len(r.pending) > 0 {
			p := r.pending[0]
			r.pending = r.pending[1:]
			return p.raw, &RowError{Reason: p.reason}
		}
		if r.arr.active {
			if o, ok := r.nextElement(dst); ok {
				return o.result()
			}
			continue
		}
		doc, err := r.nextDoc()
		if err != nil {
			return nil, err
		}
		if raw, ok := r.plainRow(doc, dst); ok {
			return raw, nil
		}
		if o := r.beginDoc(doc, dst); o.row || o.reason != "" || o.fatal != nil {
			return o.result()
		}
	}
}

// outcome is what reading one document or array element produced.
type outcome struct {
	row    bool // dst holds a row; raw is its text
	raw    []byte
	reason string // a filtered row: Doris's reason; raw is the src line
	fatal  error
	code   sjCode // array elements: simdjson threw, the document is dropped
}

func (o outcome) result() ([]byte, error) {
	switch {
	case o.fatal != nil:
		return nil, o.fatal
	case o.reason != "":
		return o.raw, &RowError{Reason: o.reason}
	}
	return o.raw, nil
}

func rowError(raw []byte, reason string) outcome { return outcome{raw: raw, reason: reason} }

// nextDoc returns the next non-empty line (or the body), without a UTF-8
// BOM. A line holding only a BOM is returned empty, as Doris then reports
// an empty document.
func (r *Reader) nextDoc() ([]byte, error) {
	for {
		var doc []byte
		var err error
		if r.lines != nil {
			doc, err = r.lines.next()
		} else if r.body != nil {
			doc, err = readBody(r.body, r.opts.MaxBodyBytes)
			r.body = nil
		} else {
			err = io.EOF
		}
		if err != nil {
			return nil, err
		}
		if len(doc) == 0 {
			continue
		}
		if len(doc) >= 3 && doc[0] == 0xEF && doc[1] == 0xBB && doc[2] == 0xBF {
			doc = doc[3:]
		}
		if r.lines != nil {
			r.padDoc(doc)
		}
		return doc, nil
	}
}

// docError filters the whole document, unless the document fails
// simdjson's first stage, whose error Doris reports first.
func (r *Reader) docError(doc []byte, reason string) outcome {
	if c := stage1(doc); c != sjOK {
		reason = docParseReason(c)
	}
	return rowError(doc, reason)
}

// iterError: simdjson threw while Doris walked the document.
func (r *Reader) iterError(doc []byte, code sjCode) outcome {
	if code == errStage1 {
		code = sjTapeError // not reached: stage1 classifies these
	}
	return r.docError(doc, iterReason(code))
}

// plainRow reads the commonest document in one step: an object that is
// one row, without jsonpaths, json_root or strip_outer_array, read
// without a fault and with no content after it. It reports false for any
// other document, which beginDoc then reads from the start (it gives such a
// document the outcome beginDoc gives it; this path only skips the
// outcome values beginDoc passes through its steps).
func (r *Reader) plainRow(doc []byte, dst []Field) ([]byte, bool) {
	if r.full || r.opts.StripOuterArray {
		return nil, false
	}
	i := skipWS(doc, 0)
	if i == len(doc) || doc[i] != '{' || lastToken(doc) != '}' || r.unbalancedRoot(doc, i) {
		return nil, false
	}
	r.buf = r.buf[:0]
	clear(dst)
	end, found, code := r.scanRow(doc, i, dst)
	if code != sjOK || found == 0 || skipWS(doc, end) < len(doc) {
		return nil, false
	}
	return doc[i:], true // the raw text runs to the next token: the end
}

// beginDoc applies the document-level steps of Doris's _get_json_value:
// type, json_root, the root's closing bracket, the outer-array shape.
func (r *Reader) beginDoc(doc []byte, dst []Field) outcome {
	i := skipWS(doc, 0)
	if r.full || i == len(doc) {
		if c := stage1(doc); c != sjOK {
			return rowError(doc, docParseReason(c))
		}
	}
	switch doc[i] {
	case '{', '[':
	case '"', 'n', 't', 'f', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return r.docError(doc, reasonNotObjectOrArray)
	default:
		return r.docError(doc, docParseReason(sjTapeError))
	}
	v, o := r.rowsRoot(doc, i)
	if v < 0 {
		return o
	}
	isArray := doc[v] == '['
	switch {
	case isArray && !r.opts.StripOuterArray:
		return r.docError(doc, reasonMustStrip)
	case !isArray && r.opts.StripOuterArray:
		return r.docError(doc, reasonMustNotStrip)
	case isArray:
		// json_root applies to each element when it could not apply to
		// the document (jsonpaths only).
		return r.beginArray(doc, v, r.root != nil && doc[i] == '[' && r.paths != nil)
	case r.paths != nil:
		return r.docPaths(doc, v, dst)
	}
	return r.docObject(doc, v, dst)
}

// rowsRoot returns where the rows of the document starting at doc[i] are:
// the json_root value when the document is an object, else the document.
// It returns -1 and the outcome when the document is filtered.
func (r *Reader) rowsRoot(doc []byte, i int) (int, outcome) {
	if r.root == nil || doc[i] != '{' {
		if lastToken(doc) != closer(doc[i]) || r.unbalancedRoot(doc, i) {
			return -1, r.iterError(doc, sjIncomplete)
		}
		return i, outcome{}
	}
	if lastToken(doc) != '}' || r.unbalancedRoot(doc, i) {
		return -1, r.docError(doc, "Encounter error while extract_from_object, error: "+sjIncomplete.message())
	}
	r.rootCur.reset(doc, i)
	res := evalPath(&r.rootCur, r.root)
	switch {
	case res.status != pathFound:
		return -1, r.docError(doc, r.root.reason(res))
	case !isValueStart(doc, res.pos):
		return -1, r.iterError(doc, sjTapeError)
	}
	return res.pos, outcome{}
}

// padDoc records doc as Doris copies it into its padding buffer and sets
// r.after to the byte that follows it there.
func (r *Reader) padDoc(doc []byte) {
	r.after = 0
	if len(r.pad) > len(doc) {
		r.after = r.pad[len(doc)]
	}
	if len(doc) > len(r.pad) {
		r.pad = append(r.pad[:0:0], doc...)
		return
	}
	copy(r.pad, doc)
}

// unbalancedRoot is the second half of simdjson's check_root_object and
// check_root_array: when the byte after the document is the root's closing
// bracket too, the document must have as many closing brackets as opening
// ones (outside strings), else it is INCOMPLETE_ARRAY_OR_OBJECT ("the
// document is unbalanced"). The first half, the last token being the
// closing bracket, is checked by the caller.
func (r *Reader) unbalancedRoot(doc []byte, i int) bool {
	if r.after != closer(doc[i]) {
		return false
	}
	depth := 0
	for j := i; j < len(doc); j++ {
		switch doc[j] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			end, _, _ := scanString(doc, j)
			j = end - 1
		}
	}
	return depth != 0
}

func closer(open byte) byte {
	if open == '[' {
		return ']'
	}
	return '}'
}

func isValueStart(d []byte, i int) bool {
	if i >= len(d) {
		return false
	}
	switch d[i] {
	case '{', '[', '"', 'n', 't', 'f', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	}
	return false
}

// docObject reads a document that is one row (no jsonpaths).
func (r *Reader) docObject(doc []byte, v int, dst []Field) outcome {
	if doc[v] != '{' {
		return r.iterError(doc, sjIncorrectType)
	}
	o, end := r.object(doc, v, dst)
	if o.code != sjOK {
		return r.iterError(doc, o.code)
	}
	if !r.full && skipWS(doc, end) < len(doc) {
		// Trailing content after the root object: Doris ignores it when the
		// document still ends with '}', but its first stage checks it.
		if c := stage1(doc); c != sjOK {
			return rowError(doc, docParseReason(c))
		}
	}
	return o
}

// object reads the object at d[v] as a row without jsonpaths and returns
// the index after it.
func (r *Reader) object(d []byte, v int, dst []Field) (outcome, int) {
	r.buf = r.buf[:0]
	clear(dst)
	end, found, code := r.scanRow(d, v, dst)
	if code != sjOK {
		return outcome{code: code}, end
	}
	raw := d[v:skipWS(d, end)]
	if found == 0 {
		return rowError(raw, noColumnReason(r.cols, r.opts.JSONPaths)), end
	}
	return outcome{row: true, raw: raw}, end
}

// docPaths reads a document that is one row with jsonpaths.
func (r *Reader) docPaths(doc []byte, v int, dst []Field) outcome {
	if doc[v] != '{' {
		return rowError(nil, reasonNotObjectItem)
	}
	o := r.pathRow(doc, v, dst, false)
	if o.code != sjOK {
		return r.iterError(doc, o.code)
	}
	return o
}

// pathRow fills dst from the object at d[obj] with jsonpaths. In flat mode
// (strip_outer_array) a path that cannot be evaluated fails the load, as in
// Doris; otherwise it filters the row.
func (r *Reader) pathRow(d []byte, obj int, dst []Field, flat bool) outcome {
	r.buf = r.buf[:0]
	clear(dst)
	r.top.reset(d, obj)
	valid := false
	for c := range dst {
		if c >= len(r.paths) {
			continue
		}
		p := r.paths[c]
		res := evalPath(&r.top, p)
		switch {
		case res.status == pathBad && flat:
			code, msg := p.status(res)
			return outcome{fatal: &Error{Code: code, Msg: msg, kind: ErrJSONPathData}}
		case res.status == pathBad:
			return rowError(nil, p.reason(res))
		case p.isRoot():
			dst[c] = Field{Present: true, Kind: Object, Text: d}
			if d[skipWS(d, 0)] == '[' {
				dst[c].Kind = Array
			}
		case res.status == pathNotFound:
			continue
		default:
			if _, code := readValue(d, res.pos, &dst[c], &r.buf); code != sjOK {
				return outcome{code: code}
			}
		}
		valid = true
	}
	raw := r.top.raw(obj)
	if !valid {
		return rowError(raw, noColumnReason(r.cols, r.opts.JSONPaths))
	}
	return outcome{row: true, raw: raw}
}
