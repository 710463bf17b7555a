package mysqlwire

import (
	"strconv"

	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"

	"loadgw/types"
)

// paramNames are the bind variable names of the first parameters ("v1",
// ...), made once.
var paramNames = func() []string {
	out := make([]string, 64)
	for i := range out {
		out[i] = "v" + strconv.Itoa(i+1)
	}
	return out
}()

// paramName is the bind variable name of parameter i+1.
func paramName(i int) string {
	if i < len(paramNames) {
		return paramNames[i]
	}
	return "v" + strconv.Itoa(i+1)
}

// directLiteral is the literal the parser makes of a parameter's text
// (writeLiteral), built without parsing for the common cases: an integer
// that fits BIGINT is a BIGINT literal, and every parameter written as a
// quoted string is a VARCHAR literal of its bytes. ok is false for the
// others (NULL, floats, decimals, larger integers), which are parsed.
func directLiteral(v *querypb.BindVariable) (types.Value, types.Type, bool) {
	switch {
	case v.Type == sqltypes.Null || sqltypes.IsFloat(v.Type) || v.Type == sqltypes.Decimal:
		return types.Value{}, types.Type{}, false
	case sqltypes.IsIntegral(v.Type):
		n, err := strconv.ParseInt(string(v.Value), 10, 64)
		if err != nil {
			return types.Value{}, types.Type{}, false
		}
		return types.NewInt(types.BigInt, n), types.Type{Kind: types.BigInt}, true
	}
	s := string(v.Value)
	return types.NewString(types.Varchar, s), types.Type{Kind: types.Varchar, Len: int32(len(s))}, true
}
