package tpch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// WriteFiles writes tables into dir as <table>.tbl, parallel tables at a
// time. It returns the errors of all tables that failed.
func (g *Generator) WriteFiles(dir string, tables []string, parallel int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %w", dir, err)
	}
	return g.Each(tables, parallel, func(table string, r io.Reader) error {
		f, err := os.Create(filepath.Join(dir, table+".tbl"))
		if err != nil {
			return err
		}
		if _, err := io.Copy(f, r); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	})
}

// HasFiles reports whether dir holds a .tbl file of every table.
func HasFiles(dir string) bool {
	for _, t := range Tables {
		if _, err := os.Stat(filepath.Join(dir, t+".tbl")); err != nil {
			return false
		}
	}
	return true
}

// Each generates tables, parallel at a time, each into a pipe that sink
// reads (a file, a stream load). It returns the errors of all tables that
// failed.
func (g *Generator) Each(tables []string, parallel int, sink func(table string, r io.Reader) error) error {
	slots := make(chan struct{}, max(1, parallel))
	errs := make([]error, len(tables))
	var wg sync.WaitGroup
	for i, table := range tables {
		if _, err := Columns(table); err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			pr, pw := io.Pipe()
			go func() { pw.CloseWithError(g.Write(table, pw)) }()
			err := sink(table, pr)
			pr.CloseWithError(err)
			if err != nil {
				errs[i] = fmt.Errorf("cannot generate %s: %w", table, err)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
