package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"loadgw/tpch"
)

// loadgw is the loadgw binary running on a temporary data directory.
type loadgw struct {
	bin, dir string
	cmd      *exec.Cmd
	log      *os.File
	client   *tpch.Client
	done     chan struct{}
}

// buildLoadgw builds ./cmd/loadgw of the module in the working directory.
func buildLoadgw(ctx context.Context, out string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./cmd/loadgw")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("cannot build loadgw (run tpchbench from the repository root or pass --loadgw): %w\n%s", err, b)
	}
	return out, nil
}

// startLoadgw starts bin on dir.
func startLoadgw(ctx context.Context, bin, dir string) (*loadgw, error) {
	l := &loadgw{bin: bin, dir: dir}
	return l, l.start(ctx)
}

func (l *loadgw) start(ctx context.Context) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	if l.log, err = os.OpenFile(filepath.Join(filepath.Dir(l.dir), "loadgw.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err != nil {
		return err
	}
	l.cmd = exec.Command(l.bin, "--data-dir", l.dir, "--http-addr", addr, "--log-level", "warn", "--time-zone", "UTC")
	l.cmd.Stdout, l.cmd.Stderr = l.log, l.log
	// The server dies with this process, however it ends.
	l.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := l.cmd.Start(); err != nil {
		return fmt.Errorf("cannot start loadgw: %w", err)
	}
	l.done = make(chan struct{})
	go func() { _ = l.cmd.Wait(); close(l.done) }()
	l.client = &tpch.Client{Base: "http://" + addr}
	if err := l.client.WaitReady(ctx, time.Minute); err != nil {
		l.stop()
		return err
	}
	return nil
}

// stop ends the process: SIGTERM, then SIGKILL after 30 s.
func (l *loadgw) stop() {
	if l.cmd == nil || l.cmd.Process == nil {
		return
	}
	_ = l.cmd.Process.Signal(os.Interrupt)
	select {
	case <-l.done:
	case <-time.After(30 * time.Second):
		_ = l.cmd.Process.Kill()
		<-l.done
	}
	l.log.Close()
}

// restart kills the process (a query that timed out keeps running inside
// it) and starts it again on the same data.
func (l *loadgw) restart(ctx context.Context) error {
	_ = l.cmd.Process.Kill()
	<-l.done
	l.log.Close()
	return l.start(ctx)
}

// load creates the database, the tables and the view, and stream loads the
// generated files. A failing view is reported and skipped (query 15 then
// fails); any other failure stops the load.
func (l *loadgw) load(ctx context.Context, dataDir string) error {
	skipped, err := l.client.CreateTables(ctx, "tpch")
	for _, e := range skipped {
		logf("loadgw: %v (query 15 needs the view)", e)
	}
	if err != nil {
		return err
	}
	for _, table := range tpch.Tables {
		start := time.Now()
		f, err := os.Open(filepath.Join(dataDir, table+".tbl"))
		if err != nil {
			return err
		}
		err = l.client.StreamLoad(ctx, "tpch", table, "", f)
		f.Close()
		if err != nil {
			return err
		}
		logf("loadgw: stream loaded %s in %v", table, since(start))
	}
	return nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("cannot find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
