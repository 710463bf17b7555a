package engine

import (
	"runtime"
	"sync"
)

// Index entries read on two cores. The entries of many looked-up values
// (TPC-H Q4's 57,000 orders, one seek each) are read in two parts, the
// first half of the values on the calling goroutine and the second on a
// worker of its own with an iterator of its own, when there are two CPUs;
// the parts' keys are joined in the values' order, so the answer is the
// one reading. The parts share the count of entries read, so the lookup
// gives up past its limit as one reading does.

// parallelLookupValues is the fewest values read in two parts; fewer cost
// less than starting the worker. Tests lower it.
var parallelLookupValues = 4096

// readParts reads the entries of encs (sorted and distinct), in two parts
// when they are many (see above); nil keys when there are too many
// entries.
func (e *entryReader) readParts(encs []valueKeys) ([][]byte, []valueKeys, error) {
	if len(encs) < parallelLookupValues || len(encs) < 2 || runtime.GOMAXPROCS(0) < 2 {
		keys, groups, over, err := e.readEntries(encs, true)
		if over || err != nil {
			return nil, nil, err
		}
		return keys, groups, nil
	}
	half := len(encs) / 2
	var (
		wg      sync.WaitGroup
		werr    error
		wkeys   [][]byte
		wgroups []valueKeys
		wover   bool
	)
	goScanWorker(&wg, &werr, func() error {
		var err error
		wkeys, wgroups, wover, err = e.readEntries(encs[half:], false)
		return err
	}, nil)
	ended := false
	defer func() {
		if !ended { // a panic: the worker stops and ends before it goes on
			e.stop.Store(true)
			wg.Wait()
		}
	}()
	keys, groups, over, err := e.readEntries(encs[:half], true)
	if over || err != nil {
		e.stop.Store(true)
	}
	wg.Wait()
	ended = true
	raiseWorkerPanic([]error{werr})
	if err == nil {
		err = werr
	}
	if over || wover || err != nil {
		return nil, nil, err
	}
	base := int32(len(keys))
	for _, g := range wgroups {
		g.end += base
		groups = append(groups, g)
	}
	return append(keys, wkeys...), groups, nil
}
