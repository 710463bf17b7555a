package tpch

import (
	"fmt"
	"strings"
)

// Tables are the table names in load order: referenced tables first.
var Tables = []string{"region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"}

// fileColumns are each table's columns in the order of the generated file
// (dbgen's order, which Doris's load script names in its columns header).
var fileColumns = map[string][]string{
	"region":   {"r_regionkey", "r_name", "r_comment"},
	"nation":   {"n_nationkey", "n_name", "n_regionkey", "n_comment"},
	"supplier": {"s_suppkey", "s_name", "s_address", "s_nationkey", "s_phone", "s_acctbal", "s_comment"},
	"customer": {"c_custkey", "c_name", "c_address", "c_nationkey", "c_phone", "c_acctbal", "c_mktsegment", "c_comment"},
	"part":     {"p_partkey", "p_name", "p_mfgr", "p_brand", "p_type", "p_size", "p_container", "p_retailprice", "p_comment"},
	"partsupp": {"ps_partkey", "ps_suppkey", "ps_availqty", "ps_supplycost", "ps_comment"},
	"orders":   {"o_orderkey", "o_custkey", "o_orderstatus", "o_totalprice", "o_orderdate", "o_orderpriority", "o_clerk", "o_shippriority", "o_comment"},
	"lineitem": {"l_orderkey", "l_partkey", "l_suppkey", "l_linenumber", "l_quantity", "l_extendedprice", "l_discount", "l_tax",
		"l_returnflag", "l_linestatus", "l_shipdate", "l_commitdate", "l_receiptdate", "l_shipinstruct", "l_shipmode", "l_comment"},
}

// Columns returns table's columns in the order of its generated file.
func Columns(table string) ([]string, error) {
	cols, ok := fileColumns[table]
	if !ok {
		return nil, fmt.Errorf("cannot find TPC-H table %q", table)
	}
	return cols, nil
}

// LoadColumns is the stream load `columns` header for table's file, the one
// Doris's tools/tpch-tools/bin/load-tpch-data.sh sends: the file's columns
// and `temp` for the empty field after the trailing '|'.
func LoadColumns(table string) (string, error) {
	cols, err := Columns(table)
	if err != nil {
		return "", err
	}
	return strings.Join(cols, ", ") + ", temp", nil
}
