package expr

import (
	"crypto/md5"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"loadgw/types"
)

func upper(s string) string { return strings.ToUpper(s) }

// strRet is VARCHAR(65533), or STRING when an argument is STRING.
func strRet(args []Compiled) types.Type {
	for _, a := range args {
		if a.Type().Kind == types.String {
			return tString
		}
	}
	return tVarchar
}

func str(s string) types.Value { return types.NewString(types.Varchar, s) }
func i32(n int) types.Value    { return types.NewInt(types.Int, int64(n)) }

func strFn(f func(a []types.Value) types.Value, min, max int, kinds ...argKind) *funcDef {
	if len(kinds) == 0 {
		kinds = []argKind{aStr}
	}
	return spec{min: min, max: max, args: kinds, ret: strRet, fn: func(_ *Context, a []types.Value) (types.Value, error) {
		return f(a), nil
	}}.def()
}

func intFnOf(f func(a []types.Value) types.Value, min, max int, kinds ...argKind) *funcDef {
	return spec{min: min, max: max, args: kinds, ret: fixedType(tInt), fn: func(_ *Context, a []types.Value) (types.Value, error) {
		return f(a), nil
	}}.def()
}

func init() {
	register(spec{min: 1, max: -1, args: []argKind{aStr}, ret: strRet, fn: func(_ *Context, a []types.Value) (types.Value, error) {
		if err := checkValueBytes(sumBytes(a, 0)); err != nil {
			return types.NullValue, err
		}
		var sb strings.Builder
		for _, v := range a {
			sb.WriteString(v.S)
		}
		return str(sb.String()), nil
	}}.def(), "concat")
	register(spec{min: 2, max: -1, args: []argKind{aStr}, ret: strRet, seesNull: true, fn: concatWS}.def(), "concat_ws")
	register(strFn(substr, 2, 3, aStr, aInt), "substr", "substring", "mid")
	register(intFnOf(func(a []types.Value) types.Value { return i32(len(a[0].S)) }, 1, 1, aStr), "octet_length") // length: aggstate_length.go
	register(intFnOf(func(a []types.Value) types.Value { return i32(utf8.RuneCountInString(a[0].S)) }, 1, 1, aStr), "char_length", "character_length")
	register(strFn(func(a []types.Value) types.Value { return str(strings.ToUpper(a[0].S)) }, 1, 1), "upper", "ucase")
	register(strFn(func(a []types.Value) types.Value { return str(strings.ToLower(a[0].S)) }, 1, 1), "lower", "lcase")
	register(strFn(trimFn(true, true), 1, 2), "trim")
	register(strFn(trimFn(true, false), 1, 2), "ltrim")
	register(strFn(trimFn(false, true), 1, 2), "rtrim")
	register(spec{min: 3, max: 3, args: []argKind{aStr}, ret: strRet, fn: func(_ *Context, a []types.Value) (types.Value, error) {
		if a[1].S == "" {
			return a[0], nil
		}
		if len(a[2].S) > len(a[1].S) {
			n := int64(strings.Count(a[0].S, a[1].S))
			if err := checkValueBytes(addBytes(int64(len(a[0].S)), mulBytes(n, int64(len(a[2].S)-len(a[1].S))))); err != nil {
				return types.NullValue, err
			}
		}
		return str(strings.ReplaceAll(a[0].S, a[1].S, a[2].S)), nil
	}}.def(), "replace")
	register(spec{min: 3, max: 3, args: []argKind{aStr, aInt, aStr}, ret: strRet, fn: padFn(true)}.def(), "lpad")
	register(spec{min: 3, max: 3, args: []argKind{aStr, aInt, aStr}, ret: strRet, fn: padFn(false)}.def(), "rpad")
	register(arrayOrString(strFn(func(a []types.Value) types.Value {
		r := []rune(a[0].S)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return str(string(r))
	}, 1, 1)), "reverse")
	register(strFn(func(a []types.Value) types.Value { return leftRight(a, true) }, 2, 2, aStr, aInt), "left", "strleft")
	register(strFn(func(a []types.Value) types.Value { return leftRight(a, false) }, 2, 2, aStr, aInt), "right", "strright")
	register(intFnOf(func(a []types.Value) types.Value { return i32(locate(a[1].S, a[0].S, 1)) }, 2, 2, aStr), "instr")
	register(intFnOf(func(a []types.Value) types.Value {
		pos := int64(1)
		if len(a) > 2 {
			pos = a[2].I
		}
		return i32(locate(a[0].S, a[1].S, pos))
	}, 2, 3, aStr, aStr, aInt), "locate")
	register(strFn(splitPart, 3, 3, aStr, aStr, aInt), "split_part")
	register(spec{min: 2, max: 2, args: []argKind{aStr, aInt}, ret: strRet, fn: func(_ *Context, a []types.Value) (types.Value, error) {
		if a[1].I <= 0 {
			return str(""), nil
		}
		if err := checkValueBytes(mulBytes(int64(len(a[0].S)), a[1].I)); err != nil {
			return types.NullValue, err
		}
		return str(strings.Repeat(a[0].S, int(a[1].I))), nil
	}}.def(), "repeat")
	register(spec{min: 1, max: 1, args: []argKind{aInt}, ret: strRet, fn: func(_ *Context, a []types.Value) (types.Value, error) {
		if a[0].I <= 0 {
			return str(""), nil
		}
		if err := checkValueBytes(a[0].I); err != nil {
			return types.NullValue, err
		}
		return str(strings.Repeat(" ", int(a[0].I))), nil
	}}.def(), "space")
	register(intFnOf(func(a []types.Value) types.Value {
		if a[0].S == "" {
			return i32(0)
		}
		return i32(int(a[0].S[0]))
	}, 1, 1, aStr), "ascii")
	register(spec{min: 2, max: 2, args: []argKind{aStr}, ret: fixedType(tBool), fn: func(_ *Context, a []types.Value) (types.Value, error) {
		return types.NewBool(strings.HasPrefix(a[0].S, a[1].S)), nil
	}}.def(), "starts_with")
	register(spec{min: 2, max: 2, args: []argKind{aStr}, ret: fixedType(tBool), fn: func(_ *Context, a []types.Value) (types.Value, error) {
		return types.NewBool(strings.HasSuffix(a[0].S, a[1].S)), nil
	}}.def(), "ends_with")
	register(spec{min: 1, max: -1, args: []argKind{aStr}, ret: fixedType(types.Type{Kind: types.Varchar, Len: 32}), fn: func(_ *Context, a []types.Value) (types.Value, error) {
		h := md5.New()
		for _, v := range a {
			h.Write([]byte(v.S))
		}
		return str(hex.EncodeToString(h.Sum(nil))), nil
	}}.def(), "md5", "md5sum")
	register(spec{max: 0, ret: fixedType(types.Type{Kind: types.Varchar, Len: 36}), volatile: true, fn: func(*Context, []types.Value) (types.Value, error) {
		return str(uuid.NewString()), nil
	}}.def(), "uuid")
	register(spec{min: 1, max: 1, args: []argKind{aStr}, ret: fixedType(tString), fn: func(_ *Context, a []types.Value) (types.Value, error) {
		return types.NewString(types.String, BitmapToString(a[0].S)), nil
	}}.def(), "bitmap_to_string")
}

func concatWS(_ *Context, a []types.Value) (types.Value, error) {
	if a[0].Kind == types.Null {
		return types.NullValue, nil
	}
	if err := checkValueBytes(addBytes(sumBytes(a[1:], 0), mulBytes(int64(len(a[0].S)), int64(max(len(a)-2, 0))))); err != nil {
		return types.NullValue, err
	}
	parts := make([]string, 0, len(a)-1)
	for _, v := range a[1:] {
		if v.Kind != types.Null {
			parts = append(parts, v.S)
		}
	}
	return str(strings.Join(parts, a[0].S)), nil
}

// substr is 1-based over characters; a negative start counts from the end;
// start 0 or a length below 1 gives ”.
func substr(a []types.Value) types.Value {
	if v, ok := substrForward(a); ok { // substr_fast.go
		return v
	}
	return substrRunes(a)
}

// substrRunes is substr through the string's runes: the general path, and
// the reference substrForward is tested against.
func substrRunes(a []types.Value) types.Value {
	r := []rune(a[0].S)
	pos := a[1].I
	n := int64(len(r))
	length := n
	if len(a) > 2 {
		length = a[2].I
	}
	switch {
	case pos > 0:
		pos--
	case pos < 0:
		pos += n
	default:
		return str("")
	}
	if pos < 0 || pos >= n || length <= 0 {
		return str("")
	}
	return str(string(r[pos : pos+min(length, n-pos)])) // pos+length may overflow
}

func trimFn(left, right bool) func(a []types.Value) types.Value {
	return func(a []types.Value) types.Value {
		cut := " "
		if len(a) > 1 {
			cut = a[1].S
		}
		s := a[0].S
		if cut == "" {
			return str(s)
		}
		if left {
			for strings.HasPrefix(s, cut) {
				s = s[len(cut):]
			}
		}
		if right {
			for strings.HasSuffix(s, cut) {
				s = s[:len(s)-len(cut)]
			}
		}
		return str(s)
	}
}

func padFn(left bool) func(_ *Context, a []types.Value) (types.Value, error) {
	return func(_ *Context, a []types.Value) (types.Value, error) {
		s, n, p := a[0].S, a[1].I, []rune(a[2].S)
		if n < 0 {
			return types.NullValue, nil
		}
		chars := int64(utf8.RuneCountInString(s))
		if chars >= n {
			r := []rune(s)
			return str(string(r[:n])), nil
		}
		if len(p) == 0 {
			return str(""), nil
		}
		// The fill is n-chars characters of p: refuse before building it.
		k, pl := n-chars, int64(len(p))
		fillBytes := addBytes(mulBytes(k/pl, int64(len(a[2].S))), int64(len(string(p[:k%pl]))))
		if err := checkValueBytes(addBytes(int64(len(s)), fillBytes)); err != nil {
			return types.NullValue, err
		}
		var fill strings.Builder
		for i := int64(0); i < n-chars; i++ {
			fill.WriteRune(p[i%int64(len(p))])
		}
		if left {
			return str(fill.String() + s), nil
		}
		return str(s + fill.String()), nil
	}
}

func leftRight(a []types.Value, left bool) types.Value {
	r, n := []rune(a[0].S), a[1].I
	if n <= 0 {
		return str("")
	}
	if n > int64(len(r)) {
		n = int64(len(r))
	}
	if left {
		return str(string(r[:n]))
	}
	return str(string(r[int64(len(r))-n:]))
}

// locate returns the 1-based character position of sub in s at or after
// pos, 0 when absent.
func locate(sub, s string, pos int64) int {
	r := []rune(s)
	if pos < 1 || pos > int64(len(r))+1 {
		return 0
	}
	i := strings.Index(string(r[pos-1:]), sub)
	if i < 0 {
		return 0
	}
	return int(pos) + utf8.RuneCountInString(string(r[pos-1:])[:i])
}

// splitPart returns the n-th field (negative: from the end); NULL when the
// field does not exist (unconfirmed: Doris may return ”).
func splitPart(a []types.Value) types.Value {
	if a[1].S == "" || a[2].I == 0 {
		return types.NullValue
	}
	parts := strings.Split(a[0].S, a[1].S)
	i := a[2].I
	if i < 0 {
		i += int64(len(parts)) + 1
	}
	if i < 1 || i > int64(len(parts)) {
		return types.NullValue
	}
	return str(parts[i-1])
}
