// Package window owns window functions (`f(...) OVER (PARTITION BY ...
// ORDER BY ... frame)`): Doris's analysis of a window expression (the
// frame rules and per-function frames of Nereids's WindowFunctionChecker,
// with its texts) and the evaluation of one call over one partition.
//
// The query layer partitions and sorts the rows; this package computes,
// for a partition sorted by the window's ORDER BY, one value per row.
// Frames are evaluated incrementally when their start is fixed
// (UNBOUNDED PRECEDING, also after reversing a frame that ends at
// UNBOUNDED FOLLOWING, as Doris does), otherwise by re-aggregating each
// row's frame: O(rows x frame width) for frames bounded on both sides.
package window
