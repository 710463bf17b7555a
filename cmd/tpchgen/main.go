// Command tpchgen generates the TPC-H tables (package tpch) as dbgen-style
// '|' separated files, or streams them straight into loadgw (or Doris) by
// stream load.
//
//	go run ./cmd/tpchgen --sf 1 --dir /tmp/tpch-sf1
//	go run ./cmd/tpchgen --sf 0.1 --load http://127.0.0.1:8030 --db tpch --create-tables
//
// --load loads into existing tables; --create-tables makes them first with
// the DDL of tpch/ddl/doris.sql (Doris's tpch-tools DDL).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"loadgw/tpch"
)

func main() {
	sf := flag.Float64("sf", 1, "scale factor (at least 0.01)")
	seed := flag.Uint64("seed", 0, "seed: the same seed and scale factor give the same data")
	dir := flag.String("dir", "", "write <table>.tbl files into this directory")
	load := flag.String("load", "", "stream load into the frontend at this URL (http://HOST:PORT) instead of writing files")
	db := flag.String("db", "tpch", "with --load: the database")
	user := flag.String("user", "root", "with --load: the user")
	password := flag.String("password", "", "with --load: the password")
	tables := flag.String("tables", strings.Join(tpch.Tables, ","), "comma-separated tables to generate")
	parallel := flag.Int("parallel", 2, "tables generated at once")
	create := flag.Bool("create-tables", false, "with --load: create the database and (drop and re)create the tables and the view first, with Doris's DDL")
	flag.Parse()
	if (*dir == "") == (*load == "") {
		fmt.Fprintln(os.Stderr, "tpchgen: give exactly one of --dir and --load")
		os.Exit(2)
	}
	start := time.Now()
	g, err := tpch.New(tpch.Options{ScaleFactor: *sf, Seed: *seed})
	list := strings.Split(*tables, ",")
	switch {
	case err != nil:
	case *dir != "":
		err = g.WriteFiles(*dir, list, *parallel)
	default:
		c := &tpch.Client{Base: strings.TrimSuffix(*load, "/"), User: *user, Password: *password}
		err = loadTables(c, g, *db, list, *parallel, *create)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tpchgen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "tpchgen: scale factor %v in %v\n", *sf, time.Since(start).Round(time.Millisecond))
}

// loadTables stream loads the tables into db, creating them first with create.
func loadTables(c *tpch.Client, g *tpch.Generator, db string, tables []string, parallel int, create bool) error {
	ctx := context.Background()
	if create {
		skipped, err := c.CreateTables(ctx, db)
		for _, e := range skipped {
			fmt.Fprintln(os.Stderr, "tpchgen:", e)
		}
		if err != nil {
			return err
		}
	}
	return g.Each(tables, parallel, func(table string, r io.Reader) error {
		return c.StreamLoad(ctx, db, table, "", r)
	})
}
