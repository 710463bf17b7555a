// Package spill keeps query operators within a memory bound by moving rows
// to temporary files: an external merge sort (Sorter) and row files
// (Writer, Reader) for the partitions of a hash aggregation.
//
// Files live in one directory, the data directory's tmp-query/, which the
// engine empties at start (files left by a crash) and every file is
// removed when its owner closes it. The row format is private to this
// package and never outlives the query that wrote it.
package spill
