package e2e

import (
	"runtime"
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the test process used so
// far: client and server both run in it in the MySQL benchmarks, so its
// growth per query is what a query costs, whatever else loads the machine.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// processAllocs is the number of heap allocations the test process made so
// far (client and server).
func processAllocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}
