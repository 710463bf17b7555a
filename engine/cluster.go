package engine

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// The cluster a loadgw process stands in for: one frontend and one
// backend, both this process, shown with Doris's columns by SHOW
// FRONTENDS, SHOW BACKENDS and the backends() table function. Tools and
// Doris's regression suites read the backend's Host and HttpPort to send
// stream loads to it; they are loadgw's own.

// Doris's default ports of the parts loadgw has no listener for.
const (
	dorisEditLogPort   = 9010
	dorisRPCPort       = 9020
	dorisHeartbeatPort = 9050
	dorisBePort        = 9060
	dorisBrpcPort      = 8060
	// localBackendID is the id of the one backend.
	localBackendID = 10001
	nodeHost       = "127.0.0.1"
)

// frontendCols are FrontendsProcNode.TITLE_NAMES.
var frontendCols = []string{"Name", "Host", "EditLogPort", "HttpPort", "QueryPort", "RpcPort",
	"ArrowFlightSqlPort", "Role", "IsMaster", "ClusterId", "Join", "Alive", "ReplayedJournalId",
	"LastStartTime", "LastHeartbeat", "IsHelper", "ErrMsg", "Version", "CurrentConnected", "LiveSince"}

// backendCols are BackendsProcDir.TITLE_NAMES with the types of
// BackendsTableValuedFunction's schema (SHOW BACKENDS shows them all as
// strings).
var backendCols = []struct {
	name string
	kind types.Kind
}{
	{"BackendId", types.BigInt}, {"Host", types.String}, {"HeartbeatPort", types.Int}, {"BePort", types.Int},
	{"HttpPort", types.Int}, {"BrpcPort", types.Int}, {"ArrowFlightSqlPort", types.Int},
	{"LastStartTime", types.String}, {"LastHeartbeat", types.String}, {"Alive", types.Boolean},
	{"SystemDecommissioned", types.Boolean}, {"TabletNum", types.BigInt}, {"DataUsedCapacity", types.BigInt},
	{"TrashUsedCapacity", types.BigInt}, {"AvailCapacity", types.BigInt}, {"TotalCapacity", types.BigInt},
	{"UsedPct", types.Double}, {"MaxDiskUsedPct", types.Double}, {"RemoteUsedCapacity", types.BigInt},
	{"Tag", types.String}, {"ErrMsg", types.String}, {"Version", types.String}, {"Status", types.String},
	{"HeartbeatFailureCounter", types.Int}, {"NodeRole", types.String},
}

// backendExtraCols follow NodeRole in SHOW BACKENDS only.
var backendExtraCols = []string{"CpuCores", "Memory", "LiveSince", "RunningTasks"}

// backendStatus is new Gson().toJson(Backend.BackendStatus) of a healthy
// backend.
const backendStatus = `{"lastSuccessReportTabletsTime":"N/A","lastStreamLoadTime":-1,"isQueryDisabled":false,` +
	`"isLoadDisabled":false,"isActive":true,"isShutdown":false,"currentFragmentNum":0,"lastFragmentUpdateTime":0}`

func (e *Engine) httpPort() int {
	if e.opts.HTTPPort > 0 {
		return e.opts.HTTPPort
	}
	return 8030
}

func (e *Engine) queryPort() int {
	if e.opts.QueryPort > 0 {
		return e.opts.QueryPort
	}
	return 9030
}

// timeString is TimeUtils.longToTimeString in the session's zone.
func (s *Session) timeString(t time.Time) string {
	return t.In(s.loc).Format("2006-01-02 15:04:05")
}

func (s *Session) clusterStmt(st sql.Statement) (*Result, error) {
	switch st := st.(type) {
	case *sql.Sync:
		return &Result{}, nil
	case *sql.ShowFrontends:
		if st.Name != "" {
			// SHOW FRONTENDS DISKS and other names need per-node disk views.
			return nil, errorf("Unsupported statement: SHOW FRONTENDS %s", st.Name)
		}
		return s.showFrontends(), nil
	case *sql.ShowBackends:
		return s.showBackends(), nil
	}
	panic(fmt.Sprintf("BUG: cluster statement %T", st))
}

func (s *Session) showFrontends() *Result {
	now := s.timeString(s.e.clock.Now())
	start := s.timeString(s.e.started)
	res := &Result{ResultSet: true, Columns: varcharCols(frontendCols...)}
	res.Rows = append(res.Rows, strRow("loadgw", nodeHost, strconv.Itoa(dorisEditLogPort), strconv.Itoa(s.e.httpPort()),
		strconv.Itoa(s.e.queryPort()), strconv.Itoa(dorisRPCPort), "-1", "FOLLOWER", "true", "0", "true", "true",
		"0", start, now, "true", "", "loadgw", "Yes", start))
	return res
}

func (s *Session) showBackends() *Result {
	names := make([]string, 0, len(backendCols)+len(backendExtraCols))
	for _, c := range backendCols {
		names = append(names, c.name)
	}
	names = append(names, backendExtraCols...)
	res := &Result{ResultSet: true, Columns: varcharCols(append(names[:len(backendCols):len(backendCols)], backendExtraCols...)...)}
	vals := s.backendRow()
	row := make([]string, 0, len(names))
	for i, v := range vals {
		switch backendCols[i].name {
		case "DataUsedCapacity", "TrashUsedCapacity", "AvailCapacity", "TotalCapacity", "RemoteUsedCapacity":
			row = append(row, byteUnit(v.I, "%.3f"))
		case "UsedPct", "MaxDiskUsedPct":
			row = append(row, fmt.Sprintf("%.2f %%", v.F))
		case "Alive", "SystemDecommissioned":
			row = append(row, strconv.FormatBool(v.I != 0))
		default:
			row = append(row, types.Format(v, s.loc))
		}
	}
	row = append(row, strconv.Itoa(runtime.NumCPU()), byteUnit(totalMemory(), "%.2f"), s.timeString(s.e.started), "0")
	res.Rows = append(res.Rows, strRow(row...))
	return res
}

// backendRow is the one backend's row in backendCols' types.
func (s *Session) backendRow() []types.Value {
	now := s.timeString(s.e.clock.Now())
	start := s.timeString(s.e.started)
	avail, total := diskSpace(s.e.dir)
	used := 0.0
	if total > 0 {
		used = float64(total-avail) * 100 / float64(total)
	}
	bigint := func(n int64) types.Value { return types.NewInt(types.BigInt, n) }
	integer := func(n int) types.Value { return types.NewInt(types.Int, int64(n)) }
	text := func(v string) types.Value { return types.NewString(types.String, v) }
	return []types.Value{
		bigint(localBackendID), text(nodeHost), integer(dorisHeartbeatPort), integer(dorisBePort),
		integer(s.e.httpPort()), integer(dorisBrpcPort), integer(-1), text(start), text(now),
		types.NewBool(true), types.NewBool(false), bigint(0), bigint(0), bigint(0), bigint(avail), bigint(total),
		types.NewFloat(types.Double, used), types.NewFloat(types.Double, used), bigint(0),
		text(`{"location" : "default"}`), text(""), text("loadgw"), text(backendStatus), integer(0), text("mix"),
	}
}

// planBackends is the backends() table function.
func (p *planner) planBackends(from *sql.TableRef) (*source, error) {
	if len(from.FuncArgs) > 0 {
		return nil, errorf("backends table-valued-function does not support any params")
	}
	qual := "backends"
	if from.Alias != "" {
		qual = from.Alias
	}
	n := &valuesNode{rows: [][]types.Value{p.s.backendRow()}, label: "backends()"}
	for _, c := range backendCols {
		t := types.Type{Kind: c.kind}
		if c.kind == types.String {
			t.Len = types.MaxVarcharLen
		}
		n.columns = append(n.columns, expr.Column{Name: c.name, Table: qual, Type: t})
	}
	return &source{node: n, hidden: make([]bool, len(n.columns))}, nil
}

// byteUnit is DebugUtil.getByteUint's value and unit in format.
func byteUnit(v int64, format string) string {
	f := float64(v)
	unit := ""
	switch {
	case v == 0:
	case v > 1<<40:
		f, unit = f/(1<<40), "TB"
	case v > 1<<30:
		f, unit = f/(1<<30), "GB"
	case v > 1<<20:
		f, unit = f/(1<<20), "MB"
	case v > 1<<10:
		f, unit = f/(1<<10), "KB"
	default:
		unit = "B"
	}
	return fmt.Sprintf(format, f) + " " + unit
}

// diskSpace is the available and total bytes of the data directory's
// file system (0, 0 when unknown).
func diskSpace(dir string) (avail, total int64) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, 0
	}
	return int64(st.Bavail) * int64(st.Bsize), int64(st.Blocks) * int64(st.Bsize)
}

// totalMemory is the machine's memory from /proc/meminfo (0 when unknown).
func totalMemory() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}
