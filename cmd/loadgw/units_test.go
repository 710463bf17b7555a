package main

import (
	"bytes"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap"
)

func TestByteSizeFlag(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		text string
	}{
		{"96MiB", 96 << 20, "96MiB"},
		{"100GiB", 100 << 30, "100GiB"},
		{"1GB", 1_000_000_000, "1000000000"},
		{"4096", 4096, "4KiB"},
		{"1000", 1000, "1000"},
		{"-1", -1, "-1"},
		{"-64MiB", -64 << 20, "-64MiB"},
		{"2TiB", 2 << 40, "2TiB"},
	} {
		var v int64
		if err := (byteSize{&v}).Set(c.in); err != nil || v != c.want {
			t.Errorf("Set(%q) = %d, %v; want %d", c.in, v, err, c.want)
		}
		if got := (byteSize{&v}).String(); got != c.text {
			t.Errorf("String(%d) = %q, want %q", v, got, c.text)
		}
	}
	var v int64
	for _, bad := range []string{"", "lots", "12XB", "99999999EiB"} {
		if err := (byteSize{&v}).Set(bad); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
	var i int
	if err := (intBytes{&i}).Set("3GiB"); err == nil {
		t.Errorf("an int flag took 3GiB")
	}
}

func TestDurationFlag(t *testing.T) {
	for d, want := range map[time.Duration]string{12 * time.Hour: "12h", time.Minute: "1m", 90 * time.Second: "1m30s", 48 * time.Hour: "48h", 30 * time.Second: "30s", 0: "0s"} {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestHelpShowsUnits checks that --help prints sizes with units.
func TestHelpShowsUnits(t *testing.T) {
	var out bytes.Buffer
	fsOut = &out
	defer func() { fsOut = nil }()
	if _, err := parseFlags([]string{"--help"}); err == nil {
		t.Fatal("--help did not stop")
	}
	help := out.String()
	for _, want := range []string{"(default 100GiB)", "(default 96MiB)", "(default 64MiB)", "(default 12h)", "(default 10000)"} {
		if !strings.Contains(help, want) {
			t.Errorf("--help lacks %q:\n%s", want, help)
		}
	}
	if strings.Contains(help, "107374182400") {
		t.Errorf("--help prints a size in bytes")
	}
	c, err := parseFlags([]string{"--max-load-body-bytes", "1GiB", "--load-memory-bytes", "8MiB", "--label-keep", "90m"})
	if err != nil {
		t.Fatal(err)
	}
	if c.load.MaxBodyBytes != 1<<30 || c.load.StageMemBytes != 8<<20 || c.labelKeep != 90*time.Minute {
		t.Errorf("parsed %d, %d, %v", c.load.MaxBodyBytes, c.load.StageMemBytes, c.labelKeep)
	}
}

// TestFlagBounds checks that counts out of bounds fail when the flags are
// parsed, before the store is opened or a port is bound.
func TestFlagBounds(t *testing.T) {
	var out bytes.Buffer
	fsOut = &out
	defer func() { fsOut = nil }()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-connections", "0"}, "--max-connections must be positive, not 0"},
		{[]string{"--load-history", "0"}, "--load-history must be between 1 and 1000000, not 0"},
		{[]string{"--load-history", "1000001"}, "--load-history must be between 1 and 1000000, not 1000001"},
		{[]string{"--max-mysql-connections", "-1"}, "--max-mysql-connections must be positive, not -1"},
		{[]string{"--store-compression", "zstd"}, `--store-compression must be one of snappy, none, not "zstd"`},
	} {
		_, err := parseFlags(c.args)
		if err == nil || err.Error() != c.want {
			t.Errorf("parseFlags(%q) = %v, want %q", c.args, err, c.want)
		}
	}
	if c, err := parseFlags([]string{"--store-compression", "none"}); err != nil || c.compression != "none" {
		t.Errorf("--store-compression none: %v, %q", err, c.compression)
	}
	// Without a MySQL address its connection limit is unused.
	if _, err := parseFlags([]string{"--mysql-addr", "", "--max-mysql-connections", "0"}); err != nil {
		t.Errorf("--max-mysql-connections checked with the MySQL protocol off: %v", err)
	}
}

// TestFitConnectionsCountsMySQL checks that the MySQL port's connection
// limit takes its share of the open-file limit from the HTTP connections.
func TestFitConnectionsCountsMySQL(t *testing.T) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur > 1<<40 || int64(lim.Cur)-reservedFiles-1000 < int64(lim.Cur)/4 {
		t.Skip("open-file limit unknown, unlimited or too small for the check")
	}
	log := zap.NewNop()
	alone := fitConnections(1<<30, 0, log)
	if want := int(lim.Cur) - reservedFiles; alone != want {
		t.Fatalf("HTTP alone: %d connections, want %d", alone, want)
	}
	if got := fitConnections(1<<30, 1000, log); got != alone-1000 {
		t.Errorf("beside 1000 MySQL connections: %d HTTP connections, want %d", got, alone-1000)
	}
	if got := fitConnections(100, 1000, log); got != 100 {
		t.Errorf("a limit that fits is kept: got %d, want 100", got)
	}
}
