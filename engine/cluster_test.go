package engine

import (
	"strings"
	"testing"
	"time"

	"loadgw/clock"
	"loadgw/storage"
	"loadgw/types"
)

// TestShowBackends checks SHOW BACKENDS' columns (BackendsProcDir.TITLE_NAMES)
// and the cells that do not depend on the machine; capacities and memory
// are the data directory's file system and the machine's, in Doris's units.
func TestShowBackends(t *testing.T) {
	clk := clock.NewManual(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC))
	e, err := Open(t.TempDir(), Options{Clock: clk, TimeZone: "UTC", HTTPPort: 18030, Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := e.NewSession("").Execute("SHOW BACKENDS")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range res.Columns {
		names = append(names, c.Name)
	}
	want := "BackendId Host HeartbeatPort BePort HttpPort BrpcPort ArrowFlightSqlPort LastStartTime LastHeartbeat " +
		"Alive SystemDecommissioned TabletNum DataUsedCapacity TrashUsedCapacity AvailCapacity TotalCapacity UsedPct " +
		"MaxDiskUsedPct RemoteUsedCapacity Tag ErrMsg Version Status HeartbeatFailureCounter NodeRole CpuCores Memory " +
		"LiveSince RunningTasks"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("columns:\n%s\nwant:\n%s", got, want)
	}
	if len(res.Rows) != 1 {
		t.Fatalf("%d rows", len(res.Rows))
	}
	cell := map[string]string{}
	for i, v := range res.Rows[0] {
		cell[names[i]] = types.Format(v, time.UTC)
	}
	for k, v := range map[string]string{"BackendId": "10001", "Host": "127.0.0.1", "HttpPort": "18030",
		"LastStartTime": "2026-11-29 10:00:00", "Alive": "true", "SystemDecommissioned": "false",
		"DataUsedCapacity": "0.000 ", "RemoteUsedCapacity": "0.000 ", "NodeRole": "mix", "RunningTasks": "0"} {
		if cell[k] != v {
			t.Errorf("%s = %q, want %q", k, cell[k], v)
		}
	}
	for _, k := range []string{"TotalCapacity", "AvailCapacity"} {
		if !strings.HasSuffix(cell[k], "B") {
			t.Errorf("%s = %q, want a size in Doris's units", k, cell[k])
		}
	}
	if !strings.HasSuffix(cell["UsedPct"], " %") {
		t.Errorf("UsedPct = %q", cell["UsedPct"])
	}
}

func TestByteUnit(t *testing.T) {
	for v, want := range map[int64]string{0: "0.000 ", 1000: "1000.000 B", 1025: "1.001 KB", 1 << 30: "1024.000 MB", 3 << 30: "3.000 GB"} {
		if got := byteUnit(v, "%.3f"); got != want {
			t.Errorf("byteUnit(%d) = %q, want %q", v, got, want)
		}
	}
}
