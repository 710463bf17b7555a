package engine

import (
	"errors"
	"fmt"
	"runtime"
)

// ErrMemLimitExceeded is what errors.Is finds in a query that stopped
// because an operator that cannot spill outgrew the query memory bound.
var ErrMemLimitExceeded = errors.New("query memory limit exceeded")

// memLimitError is a query's failure past its memory bound: Doris's text
// when an allocation would take a query's memory tracker past
// exec_mem_limit (MemTrackerLimiter::check_limit with
// tracker_limit_exceeded_str, prefixed "(host)[MEM_LIMIT_EXCEEDED]" as
// Status::to_protobuf does). alloc is the refused allocation, used what
// the operator held before it, limit the bound; node names the operator.
// The numbers are loadgw's: its operator's rows and its process memory.
type memLimitError struct {
	alloc, used, limit int64
	node               string
	id                 string
	process            uint64
}

func newMemLimitError(alloc, used, limit int64, node string) *memLimitError {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return &memLimitError{alloc: alloc, used: used, limit: limit, node: node, id: queryID(), process: ms.Sys}
}

func (e *memLimitError) Error() string {
	return fmt.Sprintf("(127.0.0.1)[MEM_LIMIT_EXCEEDED]failed alloc size %s, memory tracker limit exceeded, "+
		"tracker label:Query#Id=%s, type:query, limit %s, peak used %s, current used %s. backend 127.0.0.1, "+
		"process memory used %s. exec node:<%s>, can `set exec_mem_limit` to change limit, details see be.INFO.",
		printBytes(e.alloc), e.id, printBytes(e.limit), printBytes(e.used), printBytes(e.used),
		printBytes(int64(e.process)), e.node)
}

func (e *memLimitError) Unwrap() error { return ErrMemLimitExceeded }

// printBytes is Doris's PrettyPrinter::print_bytes: two decimals and the
// largest binary unit not above the value, "0" for zero.
func printBytes(v int64) string {
	if v < 0 {
		return "-" + printBytes(-v)
	}
	switch {
	case v == 0:
		return "0"
	case v >= 1<<30:
		return fmt.Sprintf("%.2f GB", float64(v)/(1<<30))
	case v >= 1<<20:
		return fmt.Sprintf("%.2f MB", float64(v)/(1<<20))
	case v >= 1<<10:
		return fmt.Sprintf("%.2f KB", float64(v)/(1<<10))
	}
	return fmt.Sprintf("%.2f B", float64(v))
}

// nestedLoopNode is the operator a nested loop join's memory error names:
// Doris runs a join without an equality key as a CROSS_JOIN_NODE, whose
// build side is its CROSS_JOIN_SINK_OPERATOR.
const nestedLoopNode = "CROSS_JOIN_SINK_OPERATOR"
