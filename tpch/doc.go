// Package tpch generates the eight TPC-H tables and holds the DDL and the 22
// queries of the TPC-H benchmark as Doris's own tools write them
// (apache/doris tools/tpch-tools), so that loadgw can be measured against
// PostgreSQL on the same data (cmd/tpchgen, cmd/tpchbench).
//
// The generator follows the TPC-H specification's table definitions (clause
// 4.2.3): cardinalities per scale factor, key relationships, value lists,
// dates between 1992 and 1998 and comments cut from a pool of text made by
// the specification's grammar, so that the queries select what they select
// on dbgen's data. It is not byte-identical to dbgen. Its output is a pure
// function of the scale factor and the seed.
//
// Files are written as dbgen writes them: fields separated by '|', every row
// ending in '|' and a newline. Doris's load script maps that last, empty
// field to a placeholder column (`columns: ..., temp`); LoadColumns does the
// same.
package tpch
