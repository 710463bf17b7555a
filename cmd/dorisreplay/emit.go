package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// emitDir, when set (-emit), is where each suite's run is written as a
// datadriven script for httpapi's TestDorisReplay (testdata/doris): the
// statements outside checks as `sql` commands (their output to be filled
// in with -rewrite) and each passing qt_/order_qt_ check as a `qt` command
// whose expected output is the suite's .out block. Failing checks are left
// out, as the scripts there hold only the checks loadgw passes.
var emitDir string

// emitter collects one suite's script.
type emitter struct {
	b strings.Builder
}

func (r *runner) emitSQL(stmt string) {
	if r.emit == nil || r.inCheckQuery {
		return
	}
	fmt.Fprintf(&r.emit.b, "sql db=%s\n%s\n----\n\n", r.sess.DB(), strings.TrimSpace(stmt))
}

func (r *runner) emitCheck(name, stmt string, want []string, sorted bool) {
	if r.emit == nil {
		return
	}
	fmt.Fprintf(&r.emit.b, "# %s\nqt db=%s", name, r.sess.DB())
	if sorted {
		r.emit.b.WriteString(" sorted")
	}
	fmt.Fprintf(&r.emit.b, "\n%s\n----\n", strings.TrimSpace(stmt))
	if sorted {
		want = slices.Clone(want)
		sort.Strings(want)
	}
	for _, l := range want {
		r.emit.b.WriteString(l + "\n")
	}
	r.emit.b.WriteString("\n")
}

// writeEmitted writes the suite's script to emitDir/<suite base>.txt.
func (r *runner) writeEmitted(suitePath string) error {
	if r.emit == nil {
		return nil
	}
	// The suite's path names the file: suites of different folders share
	// base names (query_p0/.../explode and nereids_p0/.../explode).
	name := strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(suitePath, "regression-test/suites/"), ".groovy"), "/", "__")
	head := fmt.Sprintf("# Replays Apache Doris's regression suite %s\n# (%s), each check against its block of the suite's .out file.\n\n",
		strings.TrimSuffix(strings.TrimPrefix(suitePath, "regression-test/suites/"), ".groovy"), suitePath)
	return os.WriteFile(filepath.Join(emitDir, name+".txt"), []byte(head+r.emit.b.String()), 0o644)
}
