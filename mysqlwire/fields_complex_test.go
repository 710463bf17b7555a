package mysqlwire

import (
	"testing"

	"github.com/dolthub/vitess/go/sqltypes"

	"loadgw/engine"
	"loadgw/types"
)

// TestFieldsComplexTypes checks the MySQL column type codes of Doris's
// complex columns against PrimitiveType.toMysqlType: MYSQL_TYPE_STRING
// (254) for ARRAY, MAP, STRUCT, IPV4, IPV6 and LARGEINT, MYSQL_TYPE_JSON
// (245) for JSON and VARIANT, MYSQL_TYPE_BLOB (252) for STRING, all with
// charset 33 and length 255.
func TestFieldsComplexTypes(t *testing.T) {
	for _, tc := range []struct {
		typ  string
		code int64
	}{
		{"ARRAY<INT>", 254}, {"MAP<STRING,INT>", 254}, {"STRUCT<x:INT>", 254},
		{"IPV4", 254}, {"IPV6", 254}, {"LARGEINT", 254}, {"VARCHAR(10)", 254},
		{"JSON", 245}, {"VARIANT", 245}, {"STRING", 252},
	} {
		typ, err := types.ParseTypeString(tc.typ)
		if err != nil {
			t.Fatalf("%s: %v", tc.typ, err)
		}
		f := fields([]engine.Column{{Name: "c", Type: typ}})[0]
		code, _ := sqltypes.TypeToMySQL(f.Type)
		if code != tc.code || f.Charset != charsetUTF8 || f.ColumnLength != 255 {
			t.Errorf("%s: type %d charset %d length %d, want type %d charset 33 length 255",
				tc.typ, code, f.Charset, f.ColumnLength, tc.code)
		}
	}
}
