package jsonline

import "unicode/utf8"

// stage1 reproduces the checks of simdjson's first stage, which Doris runs
// over the whole document before reading anything (parser::iterate). Their
// precedence is simdjson's: an unclosed string, then unescaped control
// characters inside strings, then a document without any token, then
// invalid UTF-8. It returns sjOK when the document passes.
//
// The fast path does not call it: the tokenizer detects the same problems in
// the bytes it visits, and stage1 runs only to classify an error or to check
// bytes the tokenizer skipped (trailing content, fields not visited).
func stage1(d []byte) sjCode {
	inString, unescaped, anyToken := false, false, false
	for i := 0; i < len(d); i++ {
		c := d[i]
		if inString {
			switch {
			case c == '\\':
				if i+1 < len(d) && d[i+1] < 0x20 {
					unescaped = true
				}
				i++
			case c == '"':
				inString = false
			case c < 0x20:
				unescaped = true
			}
			continue
		}
		switch class[c] {
		case clsWS:
		case clsQuote:
			inString, anyToken = true, true
		case clsEscape:
			anyToken = true
			if i+1 < len(d) && (d[i+1] == '"' || d[i+1] == '\\') {
				i++
			}
		default:
			anyToken = true
		}
	}
	switch {
	case inString:
		return sjUnclosedString
	case unescaped:
		return sjUnescapedChars
	case !anyToken:
		return sjEmpty
	case !utf8.Valid(d):
		return sjUTF8Error
	}
	return sjOK
}

// lastToken returns the last non-whitespace byte of d (0 if none): simdjson
// requires it to close the root object or array (check_root_object).
func lastToken(d []byte) byte {
	for i := len(d) - 1; i >= 0; i-- {
		if class[d[i]] != clsWS {
			return d[i]
		}
	}
	return 0
}
