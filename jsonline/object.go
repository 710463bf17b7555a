package jsonline

// Matching keys to wanted columns (no jsonpaths), as Doris's
// _simdjson_set_column_value does: keys are unescaped and compared exactly
// (case-sensitive) with the column names; the first occurrence of a key
// wins; other keys are skipped without looking inside their values.

const orderCacheSize = 64

// keyMatcher maps keys to column indexes, remembering which column the key
// at each position matched last time (rows usually repeat the key order).
type keyMatcher struct {
	cols  []string
	index map[string]int
	order [orderCacheSize]int32
}

func newKeyMatcher(cols []string) *keyMatcher {
	m := &keyMatcher{cols: cols, index: make(map[string]int, len(cols))}
	for i, c := range cols {
		if _, dup := m.index[c]; !dup {
			m.index[c] = i
		}
	}
	for i := range m.order {
		m.order[i] = -1
	}
	return m
}

// lookup returns the column of key, the ordinal-th key of its object, or -1.
func (m *keyMatcher) lookup(key []byte, ordinal int) int {
	if ordinal < orderCacheSize {
		if c := m.order[ordinal]; c >= 0 && string(key) == m.cols[c] {
			return int(c)
		}
	}
	c, ok := m.index[string(key)]
	if !ok {
		return -1
	}
	if ordinal < orderCacheSize {
		m.order[ordinal] = int32(c)
	}
	return c
}

// scanRow reads the object starting at d[i] ('{') into dst, which must be
// cleared. It returns the index after the object and how many wanted
// columns were present.
func (r *Reader) scanRow(d []byte, i int, dst []Field) (end, found int, code sjCode) {
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		return i + 1, 0, sjOK
	}
	for ordinal := 0; ; ordinal++ {
		var key []byte
		if key, i, code = r.fieldKey(d, i); code != sjOK {
			return i, found, code
		}
		if col := r.match.lookup(key, ordinal); col >= 0 && !dst[col].Present {
			i, code = readValue(d, i, &dst[col], &r.buf)
			found++
		} else {
			i, code = skipValue(d, i)
		}
		if code != sjOK {
			return i, found, code
		}
		var closed bool
		if i, closed, code = nextField(d, i); code != sjOK || closed {
			return i, found, code
		}
	}
}

// fieldKey reads `"key" :` at d[i] and returns the unescaped key and the
// index of the value.
func (r *Reader) fieldKey(d []byte, i int) ([]byte, int, sjCode) {
	if i >= len(d) || d[i] != '"' {
		return nil, i, sjTapeError // "Object key is not a string"
	}
	end, esc, ok := scanString(d, i)
	if !ok {
		return nil, end, errStage1
	}
	key := d[i+1 : end-1]
	if esc {
		if r.keyBuf, ok = unescape(r.keyBuf[:0], key); !ok {
			return nil, end, sjStringError
		}
		key = r.keyBuf
	}
	i = skipWS(d, end)
	if i >= len(d) || d[i] != ':' {
		return nil, i, sjTapeError // "Missing colon in object field"
	}
	return key, skipWS(d, i+1), sjOK
}

// nextField moves past the ',' or '}' that follows a field's value at or
// after d[i]; closed reports the '}'.
func nextField(d []byte, i int) (next int, closed bool, code sjCode) {
	i = skipWS(d, i)
	if i >= len(d) {
		return i, false, sjTapeError
	}
	switch d[i] {
	case ',':
		return skipWS(d, i+1), false, sjOK
	case '}':
		return i + 1, true, sjOK
	}
	return i, false, sjTapeError // "Missing comma between object fields"
}
