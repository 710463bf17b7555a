package expr

import (
	"encoding/json"
	"strconv"
	"time"

	"loadgw/types"
)

// json_array(v, ...) and json_object(k, v, ...) build JSON from SQL values
// as Doris does: NULL is null, BOOLEAN true/false, numbers as numbers
// (DECIMAL at its scale, DOUBLE in shortest digits), JSON as is, strings and
// every other type as a JSON string of their text.

// appendJSONValue appends v as a JSON value.
func appendJSONValue(b []byte, v types.Value, ctx *Context) []byte {
	switch v.Kind {
	case types.Null:
		return append(b, "null"...)
	case types.Boolean:
		return strconv.AppendBool(b, v.I != 0)
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.LargeInt, types.Decimal:
		return types.AppendFormat(b, v, nil)
	case types.Float, types.Double:
		j, err := types.Cast(v, tJSON, nil)
		if err != nil {
			return append(b, "null"...)
		}
		return append(b, j.S...)
	case types.JSON:
		return append(b, v.S...)
	}
	return appendJSONString(b, types.Format(v, ctxLoc(ctx)))
}

func ctxLoc(ctx *Context) *time.Location {
	if ctx == nil {
		return nil
	}
	return ctx.Loc
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

func jsonArray(ctx *Context, a []types.Value) (types.Value, error) {
	b := []byte{'['}
	for i, v := range a {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONValue(b, v, ctx)
	}
	return types.NewString(types.JSON, string(append(b, ']'))), nil
}

func jsonObject(ctx *Context, a []types.Value) (types.Value, error) {
	b := []byte{'{'}
	for i := 0; i+1 < len(a); i += 2 {
		if a[i].IsNull() {
			// Doris's text, with its row and argument index in this order.
			return types.NullValue, errorf("JSON documents may not contain NULL member name(argument index:  %d, row index: %d)", 0, i)
		}
		k := types.Format(a[i], ctxLoc(ctx))
		if len(k) > 255 {
			return types.NullValue, errorf("JSON object keys(argument index: %d) must be less than 256 bytes, but got size: %d", i, len(k))
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = appendJSONValue(b, a[i+1], ctx)
	}
	return types.NewString(types.JSON, string(append(b, '}'))), nil
}

func init() {
	register(spec{min: 0, max: -1, ret: fixedType(tJSON), fn: jsonArray, seesNull: true}.def(), "json_array", "jsonb_array")
	objDef := spec{min: 0, max: -1, ret: fixedType(tJSON), fn: jsonObject, seesNull: true}.def()
	register(&funcDef{min: 0, max: -1, raw: func(b *binder, name string, args []Expr) (Compiled, error) {
		call := &Call{Name: name, Args: args}
		if len(args)%2 == 1 {
			return nil, errorf("json_object can't be odd parameters, need even parameters: %s", String(call))
		}
		for i := 0; i < len(args); i += 2 {
			if l, ok := args[i].(*Literal); ok && l.Val.IsNull() {
				return nil, errorf("json_object key can't be NULL: %s", String(call))
			}
		}
		bound, err := b.bindAll(args)
		if err != nil {
			return nil, err
		}
		return objDef.bind(name, bound)
	}}, "json_object", "jsonb_object")
}
