package csvline

import "bytes"

// split fills r.fields from line; decode applies the value step.
func (r *Reader) split(line []byte, decode bool) {
	r.fields = r.fields[:0]
	if r.opts.Enclose != 0 {
		r.splitEnclosed(line)
	} else if sep := r.opts.ColumnSeparator; len(sep) == 1 {
		r.splitByte(line, sep[0])
	} else {
		r.splitBytes(line, sep)
	}
	if decode {
		r.decodeFields(len(line))
	}
}

// splitByte splits at every sep (PlainCsvTextFieldSplitter, one byte).
func (r *Reader) splitByte(line []byte, sep byte) {
	for {
		i := bytes.IndexByte(line, sep)
		if i < 0 {
			break
		}
		r.fields = append(r.fields, line[:i:i])
		line = line[i+1:]
	}
	r.fields = append(r.fields, line)
}

// splitBytes splits at each leftmost non-overlapping sep: Doris's KMP
// splitter skips matches that overlap the previous one, so "xxxx" with
// separator "xx" is two separators, not three.
func (r *Reader) splitBytes(line, sep []byte) {
	for {
		i := bytes.Index(line, sep)
		if i < 0 {
			break
		}
		r.fields = append(r.fields, line[:i:i])
		line = line[i+len(sep):]
	}
	r.fields = append(r.fields, line)
}

// splitEnclosed cuts line at the separators the scanner recorded and drops
// one enclose character from both ends of a field that has one at each
// (EncloseCsvTextFieldSplitter).
func (r *Reader) splitEnclosed(line []byte) {
	prev := 0
	for _, p := range r.enc.seps {
		r.fields = append(r.fields, trimEnclose(line[prev:p:p], r.opts.Enclose))
		prev = p + len(r.opts.ColumnSeparator)
	}
	r.fields = append(r.fields, trimEnclose(line[prev:], r.opts.Enclose))
}

func trimEnclose(f []byte, enc byte) []byte {
	if len(f) > 1 && f[0] == enc && f[len(f)-1] == enc {
		return f[1 : len(f)-1 : len(f)-1]
	}
	return f
}

func isNullLiteral(f []byte) bool { return len(f) == 2 && f[0] == '\\' && f[1] == 'N' }

// decodeFields is CsvReader::_deserialize_nullable_string for every field:
// empty_field_as_null, then trim_double_quotes (a trimmed value is never
// NULL), then the \N literal, then escape removal. Unescaped values are
// written to r.scratch, which holds lineLen bytes so it never moves.
func (r *Reader) decodeFields(lineLen int) {
	if cap(r.scratch) < lineLen {
		r.scratch = make([]byte, 0, lineLen)
	}
	r.scratch = r.scratch[:0]
	r.nulls = r.nulls[:0]
	esc, enc := r.opts.Escape, r.opts.Enclose
	for k, f := range r.fields {
		null := false
		switch {
		case r.opts.EmptyFieldAsNull && len(f) == 0:
			null = true
		case r.opts.TrimDoubleQuotes && len(f) >= 2 && f[0] == '"' && f[len(f)-1] == '"':
			f = f[1 : len(f)-1 : len(f)-1]
		case isNullLiteral(f):
			null = true
		}
		if !null && esc != 0 && needsUnescape(f, esc, enc) {
			start := len(r.scratch)
			r.scratch = appendUnescapedValue(r.scratch, f, esc, enc)
			f = r.scratch[start:len(r.scratch):len(r.scratch)]
		}
		r.fields[k] = f
		r.nulls = append(r.nulls, null)
	}
}

// needsUnescape reports whether f holds the escape character or a doubled
// quote, the only bytes appendUnescapedValue changes.
func needsUnescape(f []byte, esc, quote byte) bool {
	if bytes.IndexByte(f, esc) >= 0 {
		return true
	}
	if quote == 0 {
		return false
	}
	for i := bytes.IndexByte(f, quote); i >= 0 && i+1 < len(f); {
		if f[i+1] == quote {
			return true
		}
		j := bytes.IndexByte(f[i+1:], quote)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// appendUnescapedValue is Doris's escape_string_for_csv
// (be/src/vec/data_types/serde/data_type_string_serde.h): an escape
// character, or the first of two quote characters, drops itself and keeps
// the next byte; a final escape character is dropped. quote is the enclose
// character, 0 when none is set. (Doris passes its unset enclose, 0, and so
// collapses two NUL bytes into one; csvline keeps NUL bytes as data.)
func appendUnescapedValue(dst, f []byte, esc, quote byte) []byte {
	escNext := false
	for i, c := range f {
		if (quote != 0 && c == quote && i+1 < len(f) && f[i+1] == quote) || c == esc {
			escNext = !escNext
		} else {
			escNext = false
		}
		if !escNext {
			dst = append(dst, c)
		}
	}
	return dst
}
