package mysqlwire

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"

	"loadgw/expr"
	"loadgw/sql"
)

// TestDirectLiteralMatchesParser requires the literal built without parsing
// to be the one the parser makes of the parameter's text.
func TestDirectLiteralMatchesParser(t *testing.T) {
	for _, v := range []*querypb.BindVariable{
		{Type: sqltypes.Int64, Value: []byte("0")},
		{Type: sqltypes.Int64, Value: []byte("-9223372036854775808")},
		{Type: sqltypes.Int64, Value: []byte("9223372036854775807")},
		{Type: sqltypes.Int8, Value: []byte("-5")},
		{Type: sqltypes.Uint64, Value: []byte("18446744073709551615")},
		{Type: sqltypes.Uint32, Value: []byte("4294967295")},
		{Type: sqltypes.VarChar, Value: []byte("it's \\ a \"test\"")},
		{Type: sqltypes.VarBinary, Value: []byte("héllo\x00")},
		{Type: sqltypes.Datetime, Value: []byte("2024-02-29 23:59:58.123")},
		{Type: sqltypes.Float64, Value: []byte("1.5")},
		{Type: sqltypes.Null},
	} {
		var b strings.Builder
		writeLiteral(&b, v)
		e, err := sql.ParseExpr(b.String())
		if err != nil {
			t.Fatalf("%s: %v", b.String(), err)
		}
		val, typ, ok := directLiteral(v)
		if !ok {
			continue
		}
		lit, isLit := e.(*expr.Literal)
		if !isLit || lit.Type != typ || !reflect.DeepEqual(lit.Val, val) {
			t.Errorf("%s (%v): direct %v %v, parsed %#v", b.String(), v.Type, typ, val, e)
		}
	}
}
