package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mysqlScriptWants is what each example of scripts/mysql must print.
var mysqlScriptWants = map[string][]string{
	"spec-sessions.sh": {
		"|    0 |        1 | created | 100.00 | NULL               |               NULL |",
		"|    1 |        1 | paid    | 100.00 | created            |             100.00 |",
		"|    2 |        1 | paid    | 100.00 | paid               |             100.00 |",
		"|    0 |        1 | created | 150.00 | NULL               |               NULL |",
		`"Status": "Success"`,
		"|    1 |   10 |  111 |  111 |    1 |    1 |",
		"|    2 |    2 |   20 |    2 |  222 |   25 |",
		"|    4 |   43 |    4 |   99 |   20 |    4 |",
		"|    6 |  999 | 9876 |  777 | 1234 | NULL |",
		"|    2 | persistent |",
		"|    3 | live       |",
	},
}

// TestMySQLScripts runs every example of scripts/mysql against a fresh
// server, twice (they must be re-runnable).
func TestMySQLScripts(t *testing.T) {
	mysqlClient(t)
	bash := toolPath(t, "bash")
	toolPath(t, "curl")
	scripts, err := filepath.Glob(filepath.Join(moduleRoot(t), "scripts", "mysql", "*.sh"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts in scripts/mysql (%v)", err)
	}
	s, addr := startMySQLServer(t)
	host, port, _ := strings.Cut(addr, ":")
	for round := 1; round <= 2; round++ {
		for _, path := range scripts {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			cmd := exec.CommandContext(ctx, bash, path)
			cmd.Env = append(os.Environ(), "HOST="+s.addr, "MYSQL_HOST="+host, "MYSQL_PORT="+port)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			cancel()
			name := filepath.Base(path)
			if err != nil || stderr.Len() > 0 {
				t.Fatalf("round %d: %s: %v\nstdout:\n%s\nstderr:\n%s", round, name, err, stdout.Bytes(), stderr.Bytes())
			}
			for _, want := range mysqlScriptWants[name] {
				if !bytes.Contains(stdout.Bytes(), []byte(want)) {
					t.Errorf("round %d: %s did not print %s:\n%s", round, name, want, stdout.Bytes())
				}
			}
		}
	}
}
