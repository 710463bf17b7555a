package tpch

import (
	"embed"
	"fmt"
	"regexp"
)

//go:embed ddl/*.sql queries/*.sql
var files embed.FS

// QueryCount is the number of TPC-H queries.
const QueryCount = 22

func file(name string) string {
	b, err := files.ReadFile(name)
	if err != nil {
		panic("BUG: embedded file missing: " + name)
	}
	return string(b)
}

// DorisDDL is the statements creating the eight tables and the view
// revenue0 in Doris's SQL, as Doris's tpch-tools create them.
func DorisDDL() []string { return SplitStatements(file("ddl/doris.sql")) }

// PostgresDDL is the same tables and view for PostgreSQL.
func PostgresDDL() []string { return SplitStatements(file("ddl/postgres.sql")) }

// PostgresIndexes is the keys, indexes and ANALYZE run after the load.
func PostgresIndexes() []string { return SplitStatements(file("ddl/postgres_indexes.sql")) }

// Query returns TPC-H query n (1..22) in Doris's text, without the final
// ';'. PostgreSQL runs the same text.
func Query(n int) (string, error) {
	if n < 1 || n > QueryCount {
		return "", fmt.Errorf("cannot find TPC-H query %d: queries are 1 to %d", n, QueryCount)
	}
	stmts := SplitStatements(file(fmt.Sprintf("queries/q%d.sql", n)))
	if len(stmts) != 1 {
		panic(fmt.Sprintf("BUG: query %d holds %d statements", n, len(stmts)))
	}
	return stmts[0], nil
}

// orderKeys are the result columns (from 0) of each query's ORDER BY, in
// its order; queries 6, 14, 17 and 19 have none.
var orderKeys = map[int][]int{
	1: {0, 1}, 2: {0, 2, 1, 3}, 3: {1, 2}, 4: {0}, 5: {1}, 7: {0, 1, 2}, 8: {0}, 9: {0, 1},
	10: {2}, 11: {1}, 12: {0}, 13: {1, 0}, 15: {0}, 16: {3, 0, 1, 2}, 18: {4, 3}, 20: {0},
	21: {1, 0}, 22: {0},
}

// OrderKeys returns the result columns (from 0) that query n's ORDER BY
// sorts by, nil when it has no ORDER BY: rows that tie on them may come in
// any order.
func OrderKeys(n int) []int { return orderKeys[n] }

// Ordered reports whether query text sorts its result (ORDER BY at the
// end), so that row order is part of the answer.
func Ordered(query string) bool { return orderBy.MatchString(query) }

var orderBy = regexp.MustCompile(`(?i)\border\s+by\b`)
