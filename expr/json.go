package expr

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"loadgw/types"
)

// jsonExtract is json_extract(json, path) for paths of the form
// $.key.key[n]; the result is the JSON text of the value, NULL when absent.
func jsonExtract(_ *Context, a []types.Value) (types.Value, error) {
	d := json.NewDecoder(strings.NewReader(a[0].S))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return types.NullValue, nil
	}
	path := a[1].S
	if !strings.HasPrefix(path, "$") {
		return types.NullValue, nil
	}
	path = path[1:]
	for path != "" {
		switch path[0] {
		case '.':
			path = path[1:]
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			key := strings.Trim(path[:end], `"`)
			path = path[end:]
			m, ok := v.(map[string]any)
			if !ok {
				return types.NullValue, nil
			}
			if v, ok = m[key]; !ok {
				return types.NullValue, nil
			}
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return types.NullValue, nil
			}
			n, err := strconv.Atoi(path[1:end])
			path = path[end+1:]
			arr, ok := v.([]any)
			if err != nil || !ok || n < 0 || n >= len(arr) {
				return types.NullValue, nil
			}
			v = arr[n]
		default:
			return types.NullValue, nil
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return types.NullValue, nil
	}
	return types.NewString(types.String, strings.TrimSuffix(buf.String(), "\n")), nil
}
