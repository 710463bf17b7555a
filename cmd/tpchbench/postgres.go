package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"loadgw/tpch"
)

// postgresSettings are the server settings of the throwaway cluster: memory
// for a 1 GB data set, and no durability (the data is regenerated anyway),
// which speeds up the load and not the queries.
var postgresSettings = []string{
	"listen_addresses=127.0.0.1",
	"shared_buffers=1GB",
	"work_mem=64MB",
	"maintenance_work_mem=512MB",
	"effective_cache_size=4GB",
	"max_wal_size=4GB",
	"fsync=off",
	"synchronous_commit=off",
	"full_page_writes=off",
}

// postgres is a throwaway PostgreSQL cluster under a temporary directory.
type postgres struct {
	bin  string // directory of initdb, pg_ctl, postgres
	dir  string
	port int
	cred *syscall.Credential // the user the server runs as when we are root
	conn *pgx.Conn
}

// findPostgresBin returns the directory of initdb: flag, PATH, or the
// Debian location of PostgreSQL 15.
func findPostgresBin(flagDir string) (string, error) {
	if flagDir != "" {
		return flagDir, nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Dir(real), nil
		}
		return filepath.Dir(p), nil
	}
	if _, err := os.Stat("/usr/lib/postgresql/15/bin/initdb"); err == nil {
		return "/usr/lib/postgresql/15/bin", nil
	}
	return "", errors.New("cannot find PostgreSQL's initdb: install postgresql-15 or pass --pg-bin")
}

// startPostgres creates a cluster in dir and starts it on a free port.
// initdb refuses to run as root, so then the cluster belongs to the user
// "postgres" (or "nobody").
func startPostgres(ctx context.Context, bin, dir string) (*postgres, error) {
	pg := &postgres{bin: bin, dir: dir}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		cred, err := unprivileged()
		if err != nil {
			return nil, err
		}
		pg.cred = cred
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return nil, err
		}
	}
	version, err := exec.Command(filepath.Join(bin, "postgres"), "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("cannot run %s/postgres: %w", bin, err)
	}
	logf("PostgreSQL: %s", strings.TrimSpace(string(version)))
	data := filepath.Join(dir, "data")
	if err := pg.run(ctx, "initdb", "-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"); err != nil {
		return nil, err
	}
	if pg.port, err = freePort(); err != nil {
		return nil, err
	}
	opts := "-p " + strconv.Itoa(pg.port) + " -k " + dir
	for _, s := range postgresSettings {
		opts += " -c " + s
	}
	if err := pg.run(ctx, "pg_ctl", "-D", data, "-l", filepath.Join(dir, "server.log"), "-w", "-t", "120", "-o", opts, "start"); err != nil {
		return nil, err
	}
	if err := pg.connect(ctx, "postgres"); err != nil {
		pg.stop()
		return nil, err
	}
	if _, err := pg.conn.Exec(ctx, "create database tpch"); err != nil {
		pg.stop()
		return nil, err
	}
	pg.conn.Close(ctx)
	if err := pg.connect(ctx, "tpch"); err != nil {
		pg.stop()
		return nil, err
	}
	return pg, nil
}

func unprivileged() (*syscall.Credential, error) {
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
	}
	return nil, errors.New("cannot run PostgreSQL as root and there is no user postgres or nobody")
}

func (pg *postgres) connect(ctx context.Context, db string) error {
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=127.0.0.1 port=%d user=postgres dbname=%s sslmode=disable", pg.port, db))
	if err != nil {
		return err
	}
	// Text results for every type: the answers are compared as text.
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	pg.conn, err = pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("cannot connect to PostgreSQL: %w", err)
	}
	return nil
}

// run runs one of the cluster's programs as the cluster's user.
func (pg *postgres) run(ctx context.Context, prog string, args ...string) error {
	cmd := exec.CommandContext(ctx, filepath.Join(pg.bin, prog), args...)
	if pg.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: pg.cred}
	}
	cmd.Dir = pg.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("cannot run %s: %w\n%s", prog, err, out)
	}
	return nil
}

// stop shuts the cluster down (fast mode); the directory is the caller's.
func (pg *postgres) stop() {
	if pg.conn != nil {
		pg.conn.Close(context.Background())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := pg.run(ctx, "pg_ctl", "-D", filepath.Join(pg.dir, "data"), "-m", "fast", "-w", "stop"); err != nil {
		logf("%v", err)
	}
}

// load creates the tables, copies the generated files in and builds the
// keys and indexes.
func (pg *postgres) load(ctx context.Context, dataDir string) error {
	for _, s := range tpch.PostgresDDL() {
		if _, err := pg.conn.Exec(ctx, s); err != nil {
			return fmt.Errorf("cannot run %.60q on PostgreSQL: %w", s, err)
		}
	}
	for _, table := range tpch.Tables {
		start := time.Now()
		cols, _ := tpch.Columns(table)
		f, err := os.Open(filepath.Join(dataDir, table+".tbl"))
		if err != nil {
			return err
		}
		sql := "copy " + table + " (" + strings.Join(cols, ", ") + ") from stdin with (format text, delimiter '|')"
		tag, err := pg.conn.PgConn().CopyFrom(ctx, &trimTrailing{r: bufio.NewReaderSize(f, 1<<20)}, sql)
		f.Close()
		if err != nil {
			return fmt.Errorf("cannot copy %s into PostgreSQL: %w", table, err)
		}
		logf("PostgreSQL: copied %d rows into %s in %v", tag.RowsAffected(), table, since(start))
	}
	start := time.Now()
	for _, s := range tpch.PostgresIndexes() {
		if _, err := pg.conn.Exec(ctx, s); err != nil {
			return fmt.Errorf("cannot run %.60q on PostgreSQL: %w", s, err)
		}
	}
	logf("PostgreSQL: keys, indexes and ANALYZE in %v", since(start))
	return nil
}

// query runs stmt and returns its rows as text.
func (pg *postgres) query(ctx context.Context, stmt string) (*tpch.Result, error) {
	rows, err := pg.conn.Query(ctx, stmt)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	res := &tpch.Result{}
	for _, f := range rows.FieldDescriptions() {
		res.Columns = append(res.Columns, f.Name)
	}
	for rows.Next() {
		raw := rows.RawValues()
		row := make([]string, len(raw))
		for i, v := range raw {
			if v == nil {
				row[i] = tpch.Null
			} else {
				row[i] = string(v)
			}
		}
		res.Rows = append(res.Rows, row)
	}
	return res, rows.Err()
}

// trimTrailing drops the '|' that ends every dbgen line, which COPY would
// read as one more column.
type trimTrailing struct {
	r   *bufio.Reader
	buf []byte
}

func (t *trimTrailing) Read(p []byte) (int, error) {
	for len(t.buf) == 0 {
		line, err := t.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return 0, errors.New("cannot copy: a line is longer than the read buffer (1 MiB)")
		}
		if len(line) >= 2 && line[len(line)-2] == '|' {
			t.buf = append(append(t.buf[:0], line[:len(line)-2]...), '\n')
		} else {
			t.buf = append(t.buf[:0], line...)
		}
		if err == io.EOF && len(t.buf) == 0 {
			return 0, io.EOF
		}
		if err != nil && err != io.EOF {
			return 0, err
		}
	}
	n := copy(p, t.buf)
	t.buf = t.buf[n:]
	return n, nil
}
