package types

import "strings"

// parseNestedTypeString parses a nested type spelled as DESC or SHOW CREATE
// TABLE print it (`array<int>`, `map<text,array<int>>`,
// `struct<f1:int,f2:varchar(10) comment 'c'>`), for ParseTypeString.
func parseNestedTypeString(s string) (Type, error) {
	t, rest, err := parseTypeText(s, 0)
	if err != nil {
		return Type{}, err
	}
	if strings.TrimSpace(rest) != "" {
		return Type{}, invalidType("Nereids do not support type: %s", s)
	}
	return t, ValidateNested(t)
}

func parseTypeText(s string, depth int) (Type, string, error) {
	if depth > MaxNestingDepth+1 {
		return Type{}, "", invalidType("Type exceeds the maximum nesting depth of %d", MaxNestingDepth)
	}
	s = strings.TrimSpace(s)
	low := strings.ToLower(s)
	switch {
	case strings.HasPrefix(low, "array<"):
		e, rest, err := parseTypeText(s[len("array<"):], depth+1)
		if err != nil {
			return Type{}, "", err
		}
		rest, err = expectText(rest, ">", s)
		return ArrayOf(e, false), rest, err
	case strings.HasPrefix(low, "map<"):
		k, rest, err := parseTypeText(s[len("map<"):], depth+1)
		if err == nil {
			rest, err = expectText(rest, ",", s)
		}
		var v Type
		if err == nil {
			v, rest, err = parseTypeText(rest, depth+1)
		}
		if err == nil {
			rest, err = expectText(rest, ">", s)
		}
		return MapOf(k, v), rest, err
	case strings.HasPrefix(low, "struct<"):
		return parseStructTypeText(s, depth)
	}
	end := 0
	for level := 0; end < len(s); end++ {
		c := s[end]
		if c == '(' {
			level++
		} else if c == ')' {
			level--
		} else if level == 0 && (c == ',' || c == '>' || c == ' ') {
			break
		}
	}
	t, err := ParseTypeString(s[:end])
	return t, s[end:], err
}

func parseStructTypeText(s string, depth int) (Type, string, error) {
	rest := s[len("struct<"):]
	var fs []StructField
	for {
		colon := strings.IndexByte(rest, ':')
		if colon <= 0 {
			return Type{}, "", invalidType("Nereids do not support type: %s", s)
		}
		f := StructField{Name: strings.TrimSpace(rest[:colon])}
		var err error
		if f.Type, rest, err = parseTypeText(rest[colon+1:], depth+1); err != nil {
			return Type{}, "", err
		}
		rest = strings.TrimSpace(rest)
		if low := strings.ToLower(rest); strings.HasPrefix(low, "not null") {
			f.NotNull, rest = true, strings.TrimSpace(rest[len("not null"):])
		}
		if low := strings.ToLower(rest); strings.HasPrefix(low, "comment '") {
			end := strings.IndexByte(rest[len("comment '"):], '\'')
			if end < 0 {
				return Type{}, "", invalidType("Nereids do not support type: %s", s)
			}
			f.Comment = rest[len("comment '") : len("comment '")+end]
			rest = rest[len("comment '")+end+1:]
		}
		fs = append(fs, f)
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, ",") {
			rest = rest[1:]
			continue
		}
		rest, err = expectText(rest, ">", s)
		return StructOf(fs), rest, err
	}
}

func expectText(rest, tok, whole string) (string, error) {
	rest = strings.TrimSpace(rest)
	if !strings.HasPrefix(rest, tok) {
		return "", invalidType("Nereids do not support type: %s", whole)
	}
	return rest[len(tok):], nil
}
