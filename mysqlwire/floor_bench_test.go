package mysqlwire

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"

	"loadgw/engine"
	"loadgw/storage"
	"loadgw/types"
)

// cannedHandler is the server's handler with prepared executions answered
// by a made-up row (the parameter as k, then 7 and 'row'), without the
// engine: what the protocol, the library, the client and the loopback
// socket cost per query.
type cannedHandler struct {
	*handler
}

var cannedColumns = []engine.Column{
	{Name: "k", Type: types.Type{Kind: types.BigInt}, OrigName: "k"},
	{Name: "v", Type: types.Type{Kind: types.Int}, OrigName: "v"},
	{Name: "s", Type: types.Type{Kind: types.Varchar, Len: 32}, OrigName: "s"},
}

func (h cannedHandler) ComStmtExecute(_ context.Context, c *mysql.Conn, prepare *mysql.PrepareData, cb func(*sqltypes.Result) error) error {
	st := h.state(c)
	k, err := strconv.ParseInt(string(prepare.BindVars["v1"].Value), 10, 64)
	if err != nil {
		return err
	}
	res := &engine.Result{ResultSet: true, Columns: cannedColumns, Rows: [][]types.Value{{
		types.NewInt(types.BigInt, k), types.NewInt(types.Int, 7), types.NewString(types.Varchar, "row"),
	}}}
	return h.sendFields(res, st.sess, cb, true, &st.binaryFields)
}

// BenchmarkPointLookupFloor is e2e's BenchmarkPointLookupMySQL (prepared
// SELECT by key, 2 go-sql-driver connections over loopback TCP, client and
// server in this process) with the engine taken out: the floor that no
// work in the engine can go below.
//
//	go test ./mysqlwire -run '^$' -bench PointLookupFloor -benchtime 4s
func BenchmarkPointLookupFloor(b *testing.B) {
	const clients = 2
	e, err := engine.Open(b.TempDir(), engine.Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	s := New(e, Options{})
	lis, err := mysql.NewListenerWithConfig(mysql.ListenerConfig{
		Listener:           newLimitListener(ln, s),
		AuthServer:         &auth{s: s},
		Handler:            cannedHandler{s.h},
		ConnReadBufferSize: 16 << 10,
	})
	if err != nil {
		b.Fatal(err)
	}
	go lis.Accept()
	defer lis.Close()
	db, err := sql.Open("mysql", "root:@tcp("+ln.Addr().String()+")/")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(clients)
	db.SetMaxIdleConns(clients)
	stmt, err := db.Prepare("SELECT * FROM t WHERE k = ?")
	if err != nil {
		b.Fatal(err)
	}
	defer stmt.Close()
	var next atomic.Int64
	var wg sync.WaitGroup
	errc := make(chan error, clients)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	allocs, cpu := ms.Mallocs, rusageCPU()
	b.ResetTimer()
	for w := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int64(w); next.Add(1) <= int64(b.N); i += clients {
				var k, v int64
				var str string
				err := stmt.QueryRow(i).Scan(&k, &v, &str)
				if err == nil && k != i {
					err = fmt.Errorf("k = %d: got row %d", i, k)
				}
				if err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	close(errc)
	for err := range errc {
		b.Fatalf("lookup failed: %v", err)
	}
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "q/s")
	b.ReportMetric(float64(rusageCPU()-cpu)/float64(b.N), "cpu-ns/q")
	b.ReportMetric(float64(ms.Mallocs-allocs)/float64(b.N), "allocs/q")
}

// rusageCPU is the process's CPU time (user and system) so far.
func rusageCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
