package mysqlwire

import (
	"testing"

	"github.com/dolthub/vitess/go/mysql"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// FuzzFastExecParams: the read path's parameter parsing of a client's
// COM_STMT_EXECUTE body never panics and never reads past the packet,
// whatever the bytes and the declared parameter types.
func FuzzFastExecParams(f *testing.F) {
	f.Add(uint8(1), []byte{0x00, 0x01, 0x08, 0x00, 1, 0, 0, 0, 0, 0, 0, 0})
	f.Add(uint8(2), []byte{0x00, 0x01, 0xfd, 0x00, 0x03, 0x00, 0x03, 'a', 'b', 'c', 0xfc, 0xff, 0xff})
	f.Add(uint8(3), []byte{0x00, 0x00, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, n uint8, b []byte) {
		count := int(n%8) + 1
		prepare := &mysql.PrepareData{ParamsCount: uint16(count), ParamsType: make([]int32, count)}
		for i := range prepare.ParamsType {
			prepare.ParamsType[i] = int32(querypb.Type_VARBINARY)
		}
		(&fastExec{}).params(prepare, b)
		for _, typ := range []querypb.Type{querypb.Type_INT64, querypb.Type_UINT8, querypb.Type_VARCHAR, querypb.Type_DECIMAL} {
			if pos, ok := readParam(&querypb.BindVariable{}, typ, b, 0); ok && (pos < 0 || pos > len(b)) {
				t.Fatalf("readParam(%v) ok at %d of %d bytes", typ, pos, len(b))
			}
		}
	})
}
