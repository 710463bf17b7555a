package jsonline

// Documents that are arrays of rows (strip_outer_array).
//
// Doris walks such a document in one go and, when simdjson throws part way
// (a malformed element, an element that is not an object), drops every row
// of the document and logs one error for it, after the row errors already
// logged for earlier elements. To give the same result without buffering
// rows, the reader first runs over the document without returning rows (a
// dry run), then walks it again returning them.

type arrayState struct {
	active bool
	doc    []byte
	pos    int  // start of the next element; -1 after the last
	root   bool // apply json_root to each element (jsonpaths only)
}

// beginArray checks the array at doc[v] and prepares to return its rows.
func (r *Reader) beginArray(doc []byte, v int, root bool) outcome {
	n, end, code := countElements(doc, v)
	if code != sjOK {
		return r.iterError(doc, code)
	}
	if !r.full && skipWS(doc, end) < len(doc) {
		if c := stage1(doc); c != sjOK {
			return rowError(doc, docParseReason(c))
		}
	}
	if n == 0 {
		if r.paths == nil {
			return rowError(nil, reasonEmptyLine)
		}
		return outcome{}
	}
	first := skipWS(doc, v+1)
	r.pending = r.pending[:0]
	for pos := first; pos >= 0; {
		var o outcome
		o, pos = r.element(doc, pos, root, r.scratch)
		switch {
		case o.fatal != nil:
			r.pending = r.pending[:0]
			return o
		case o.code != sjOK:
			last := r.iterError(doc, o.code)
			r.pending = append(r.pending, pending{raw: last.raw, reason: last.reason})
			return outcome{}
		case !o.row:
			r.pending = append(r.pending, pending{raw: o.raw, reason: o.reason})
		}
	}
	r.pending = r.pending[:0]
	r.arr = arrayState{active: true, doc: doc, pos: first, root: root}
	return outcome{}
}

// nextElement returns the outcome of the next element; false at the end.
func (r *Reader) nextElement(dst []Field) (outcome, bool) {
	if r.arr.pos < 0 {
		r.arr = arrayState{}
		return outcome{}, false
	}
	var o outcome
	o, r.arr.pos = r.element(r.arr.doc, r.arr.pos, r.arr.root, dst)
	if o.code != sjOK { // not reached: the dry run passed
		o = r.iterError(r.arr.doc, o.code)
	}
	return o, true
}

// element reads the element at d[pos] and returns the start of the next
// element (-1 after the last).
func (r *Reader) element(d []byte, pos int, root bool, dst []Field) (outcome, int) {
	if d[pos] != '{' {
		return outcome{code: sjIncorrectType}, -1
	}
	if r.paths == nil {
		o, end := r.object(d, pos, dst)
		return o, nextElement(d, end)
	}
	end, _ := skipValue(d, pos)
	obj := pos
	if root {
		r.rootCur.reset(d, pos)
		res := evalPath(&r.rootCur, r.root)
		switch {
		case res.status == pathNotFound:
			return rowError(nil, r.root.reason(res)), nextElement(d, end)
		case res.status == pathBad:
			code, msg := r.root.status(res)
			return outcome{fatal: &Error{Code: code, Msg: msg, kind: ErrJSONPathData}}, -1
		case !isValueStart(d, res.pos):
			return outcome{code: sjTapeError}, -1
		case d[res.pos] != '{':
			return rowError(nil, reasonNotObjectItem), nextElement(d, end)
		}
		obj = res.pos
	}
	return r.pathRow(d, obj, dst, true), nextElement(d, end)
}

// nextElement returns the start of the element after the one ending at
// d[end] (the array was validated by countElements), or -1.
func nextElement(d []byte, end int) int {
	i := skipWS(d, end)
	if i < len(d) && d[i] == ',' {
		return skipWS(d, i+1)
	}
	return -1
}

// countElements checks the separators of the array at d[v] like simdjson's
// count_elements (elements are skipped, not checked) and returns the number
// of elements and the index after the array.
func countElements(d []byte, v int) (n, end int, code sjCode) {
	i := skipWS(d, v+1)
	if i < len(d) && d[i] == ']' {
		return 0, i + 1, sjOK
	}
	for {
		if i, code = skipValue(d, i); code != sjOK {
			return n, i, code
		}
		n++
		if i = skipWS(d, i); i >= len(d) {
			return n, i, sjTapeError
		}
		switch d[i] {
		case ',':
			i = skipWS(d, i+1)
		case ']':
			return n, i + 1, sjOK
		default:
			return n, i, sjTapeError // "Missing comma between array elements"
		}
	}
}
