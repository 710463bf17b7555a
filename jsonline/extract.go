package jsonline

import "strconv"

// Path evaluation as Doris's JsonFunctions::extract_from_object does it with
// simdjson On-Demand: the first key is looked up with find_field_unordered
// on the row object, which searches from just after the previously found
// field to the end and then wraps around (so with duplicate keys the result
// depends on the order of the paths); deeper keys are looked up from the
// start of their object; keys are compared raw (not unescaped). A missing
// field, an index out of range or a value of the wrong type is "not found";
// a structure error met while searching is a data quality error.

type pathStatus uint8

const (
	pathFound pathStatus = iota
	pathNotFound
	pathBad
)

// What the failing step was doing, for Doris's message.
const (
	msgField uint8 = iota
	msgArray
	msgIndex
	msgEmpty
	msgInvalid
)

type pathResult struct {
	status pathStatus
	pos    int    // start of the value found
	code   sjCode // simdjson error of the failing step
	what   uint8
	elem   int // index of the failing path element
}

// status formats the failure as Doris's Status: its code and message.
func (p jsonPath) status(res pathResult) (code, msg string) {
	switch res.what {
	case msgEmpty:
		return "DATA_QUALITY_ERROR", "empty json path"
	case msgInvalid:
		return "DATA_QUALITY_ERROR", "invalid json path: " + p[res.elem].key
	case msgField:
		msg = "unable to find field: " + p[res.elem].key
	case msgArray:
		msg = "failed to access field as array, field: " + p[res.elem].key
	case msgIndex:
		msg = "failed to access array field: " + p[res.elem].key + ", index: " + strconv.Itoa(p[res.elem].idx)
	}
	if res.status == pathNotFound {
		return "NOT_FOUND", "Not found target filed, err: " + res.code.message() + ", msg: " + msg
	}
	return "DATA_QUALITY_ERROR", "err: " + res.code.message() + ", msg: " + msg
}

// reason is the failure as Doris writes it to the error log (Status::to_string).
func (p jsonPath) reason(res pathResult) string {
	code, msg := p.status(res)
	return "[" + code + "]" + msg
}

type fieldSpan struct {
	key []byte // raw key, without quotes
	val int    // start of the value
}

// objCursor searches one object's fields with find_field_unordered's
// cursor, scanning fields lazily.
type objCursor struct {
	d      []byte
	fields []fieldSpan
	next   int  // where the next unscanned field (or separator) starts
	closed bool // the closing '}' was scanned; end is after it
	end    int
	err    sjCode
	cursor int // index of the field after the last one found
}

// reset starts searching the object at d[start] ('{').
func (c *objCursor) reset(d []byte, start int) {
	c.d, c.fields, c.closed, c.err, c.cursor = d, c.fields[:0], false, sjOK, 0
	c.next = skipWS(d, start+1)
	if c.next < len(d) && d[c.next] == '}' {
		c.closed, c.end = true, c.next+1
	}
}

// scanOne scans the next field; false when the object is closed or broken.
func (c *objCursor) scanOne() bool {
	if c.closed || c.err != sjOK {
		return false
	}
	i := c.next
	if len(c.fields) > 0 {
		var closed bool
		if i, closed, c.err = nextField(c.d, i); c.err != sjOK {
			return false
		}
		if closed {
			c.closed, c.end = true, i
			return false
		}
	}
	if i >= len(c.d) || c.d[i] != '"' {
		c.err = sjTapeError
		return false
	}
	end, _, ok := scanString(c.d, i)
	if !ok {
		c.err = errStage1
		return false
	}
	key := c.d[i+1 : end-1]
	if i = skipWS(c.d, end); i >= len(c.d) || c.d[i] != ':' {
		c.err = sjTapeError
		return false
	}
	val := skipWS(c.d, i+1)
	if c.next, c.err = skipValue(c.d, val); c.err != sjOK {
		return false
	}
	c.fields = append(c.fields, fieldSpan{key: key, val: val})
	return true
}

// find looks key up from the cursor to the end, then from the start.
func (c *objCursor) find(key string) (pos int, code sjCode) {
	for j := c.cursor; ; j++ {
		if j == len(c.fields) && !c.scanOne() {
			if c.err != sjOK {
				return 0, c.err
			}
			break
		}
		if string(c.fields[j].key) == key {
			c.cursor = j + 1
			return c.fields[j].val, sjOK
		}
	}
	for j := 0; j < c.cursor && j < len(c.fields); j++ {
		if string(c.fields[j].key) == key {
			c.cursor = j + 1
			return c.fields[j].val, sjOK
		}
	}
	return 0, sjNoSuchField
}

// raw returns the object's text up to the next token (simdjson
// object::raw_json), or nil if the object cannot be scanned to its end.
func (c *objCursor) raw(start int) []byte {
	for c.scanOne() {
	}
	if !c.closed {
		return nil
	}
	return c.d[start:skipWS(c.d, c.end)]
}

// findIn looks key up in the object value at d[v], from its start.
func findIn(d []byte, v int, key string) (int, sjCode) {
	if v >= len(d) || d[v] != '{' {
		return 0, sjIncorrectType
	}
	i := skipWS(d, v+1)
	if i < len(d) && d[i] == '}' {
		return 0, sjNoSuchField
	}
	for {
		if i >= len(d) || d[i] != '"' {
			return 0, sjTapeError
		}
		end, _, ok := scanString(d, i)
		if !ok {
			return 0, errStage1
		}
		k := d[i+1 : end-1]
		if i = skipWS(d, end); i >= len(d) || d[i] != ':' {
			return 0, sjTapeError
		}
		val := skipWS(d, i+1)
		if string(k) == key {
			return val, sjOK
		}
		var code sjCode
		if i, code = skipValue(d, val); code != sjOK {
			return 0, code
		}
		var closed bool
		if i, closed, code = nextField(d, i); code != sjOK {
			return 0, code
		}
		if closed {
			return 0, sjNoSuchField
		}
	}
}

// arrayAt returns the idx-th element of the array value at d[v].
func arrayAt(d []byte, v, idx int) (int, sjCode) {
	i := skipWS(d, v+1)
	if i < len(d) && d[i] == ']' {
		return 0, sjIndexOutOfBounds
	}
	for n := 0; ; n++ {
		if n == idx {
			return i, sjOK
		}
		var code sjCode
		if i, code = skipValue(d, i); code != sjOK {
			return 0, code
		}
		if i = skipWS(d, i); i >= len(d) {
			return 0, sjTapeError
		}
		switch d[i] {
		case ',':
			i = skipWS(d, i+1)
		case ']':
			return 0, sjIndexOutOfBounds
		default:
			return 0, sjTapeError // "Missing comma between array elements"
		}
	}
}

// evalPath evaluates p on the object searched by obj.
func evalPath(obj *objCursor, p jsonPath) pathResult {
	if len(p) <= 1 {
		return pathResult{status: pathBad, what: msgEmpty}
	}
	d, pos := obj.d, 0
	for k := 1; k < len(p); k++ {
		e := p[k]
		if !e.valid {
			return pathResult{status: pathBad, what: msgInvalid, elem: k}
		}
		var code sjCode
		if k == 1 {
			pos, code = obj.find(e.key)
		} else {
			pos, code = findIn(d, pos, e.key)
		}
		if code != sjOK {
			return failed(code, msgField, k)
		}
		if e.idx == -1 {
			continue
		}
		if pos >= len(d) || d[pos] != '[' {
			return failed(sjIncorrectType, msgArray, k)
		}
		idx := e.idx
		if idx < 0 {
			idx = int(^uint(0) >> 1) // [*]: simdjson's at(-2) is out of bounds
		}
		if pos, code = arrayAt(d, pos, idx); code != sjOK {
			return failed(code, msgIndex, k)
		}
	}
	return pathResult{status: pathFound, pos: pos}
}

func failed(code sjCode, what uint8, elem int) pathResult {
	status := pathBad
	switch code {
	case sjNoSuchField, sjIndexOutOfBounds, sjIncorrectType:
		status = pathNotFound
	}
	return pathResult{status: status, code: code, what: what, elem: elem}
}
