package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// source reads files of a Doris checkout: a work tree or a bare git
// directory (read at HEAD).
type source interface {
	read(path string) ([]byte, error)
	// list returns the files under dir, recursively, sorted.
	list(dir string) ([]string, error)
}

type dirSource struct{ root string }

func (d dirSource) read(p string) ([]byte, error) { return os.ReadFile(filepath.Join(d.root, p)) }

func (d dirSource) list(dir string) ([]string, error) {
	var out []string
	err := filepath.Walk(filepath.Join(d.root, dir), func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !info.IsDir() {
			rel, _ := filepath.Rel(d.root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

type gitSource struct{ gitDir string }

func (g gitSource) read(p string) ([]byte, error) {
	cmd := exec.Command("git", "--git-dir="+g.gitDir, "show", "HEAD:"+p)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v: %s", p, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

func (g gitSource) list(dir string) ([]string, error) {
	out, err := exec.Command("git", "--git-dir="+g.gitDir, "ls-tree", "-r", "--name-only", "HEAD", dir).Output()
	if err != nil {
		return nil, fmt.Errorf("cannot list %s: %w", dir, err)
	}
	lines := strings.Fields(string(out))
	sort.Strings(lines)
	return lines, nil
}

// openSource picks the reader for a checkout path.
func openSource(p string) (source, error) {
	if st, err := os.Stat(filepath.Join(p, "regression-test")); err == nil && st.IsDir() {
		return dirSource{p}, nil
	}
	if _, err := os.Stat(filepath.Join(p, "HEAD")); err == nil {
		return gitSource{p}, nil
	}
	return nil, fmt.Errorf("%s is neither a Doris work tree nor a git directory", p)
}
