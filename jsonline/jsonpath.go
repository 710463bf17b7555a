package jsonline

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Json paths as Doris parses them (JsonFunctions::parse_json_paths): the
// text is split on '.', with '"' quoting and '\' escaping (boost's
// escaped_list_separator); the first element must be "$"; every further
// element is a key with an optional "[n]" or "[*]" suffix and no '"', '['
// or ']' in the key. "$" alone means "$.", the whole document.

type pathElem struct {
	key   string
	idx   int // -1: none; -2: [*] (never matches, as in Doris)
	valid bool
}

type jsonPath []pathElem

// isRoot reports whether p is "$." (JsonFunctions::is_root_path).
func (p jsonPath) isRoot() bool {
	return len(p) == 2 && p[0].key == "$" && p[1].key == ""
}

// parseJSONPaths parses the jsonpaths header: a JSON array of strings.
func parseJSONPaths(raw string) ([]jsonPath, error) {
	t := bytes.TrimLeft([]byte(raw), " \t\r\n")
	var elems []json.RawMessage
	if len(t) == 0 || t[0] != '[' || json.Unmarshal(t, &elems) != nil {
		return nil, invalidPathError(raw)
	}
	paths := make([]jsonPath, 0, len(elems))
	for _, e := range elems {
		var s string
		if len(e) == 0 || e[0] != '"' || json.Unmarshal(e, &s) != nil {
			return nil, invalidPathError(raw)
		}
		p, err := parsePath(s)
		if err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	if len(paths) == 0 {
		return nil, nil // "[]": keys matched by name, as without jsonpaths
	}
	return paths, nil
}

// parsePath parses one path; "$" is read as "$.".
func parsePath(s string) (jsonPath, error) {
	if s == "$" {
		s = "$."
	}
	parts, err := splitPath(s)
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return nil, nil
	}
	p := make(jsonPath, 0, len(parts))
	p = append(p, pathElem{key: "$", idx: -1, valid: parts[0] == "$"})
	if !p[0].valid {
		p[0].key = ""
	}
	for _, part := range parts[1:] {
		p = append(p, parsePathElem(part))
	}
	return p, nil
}

// splitPath is boost::escaped_list_separator<char>("\\", ".", "\"").
func splitPath(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var parts []string
	var tok strings.Builder
	inQuote := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			if i+1 >= len(s) {
				return nil, escapeError("cannot end with escape")
			}
			i++
			switch s[i] {
			case 'n':
				tok.WriteByte('\n')
			case '"', '.', '\\':
				tok.WriteByte(s[i])
			default:
				return nil, escapeError("unknown escape sequence")
			}
		case c == '.' && !inQuote:
			parts = append(parts, tok.String())
			tok.Reset()
		case c == '"':
			inQuote = !inQuote
		default:
			tok.WriteByte(c)
		}
	}
	return append(parts, tok.String()), nil
}

func escapeError(what string) *Error {
	return &Error{Code: "INVALID_JSON_PATH", Msg: "meet error " + what, kind: ErrInvalidJSONPath}
}

// parsePathElem matches ^([^"\[\]]*)(?:\[([0-9]+|\*)\])?$.
func parsePathElem(s string) pathElem {
	key, idx := s, -1
	if strings.HasSuffix(s, "]") {
		if lb := strings.LastIndexByte(s, '['); lb >= 0 {
			if n, ok := parseIndex(s[lb+1 : len(s)-1]); ok {
				key, idx = s[:lb], n
			}
		}
	}
	if strings.ContainsAny(key, "\"[]") {
		return pathElem{idx: -1}
	}
	return pathElem{key: key, idx: idx, valid: true}
}

func parseIndex(s string) (int, bool) {
	if s == "*" {
		return -2, true
	}
	if s == "" {
		return 0, false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		n = math.MaxInt32
	}
	return int(n), true
}
