// Package tso hands out commit timestamps (TSOs) with Doris's layout:
// tso = physical_ms << 18 | logical, 46 physical bits and an 18-bit logical
// counter. TSOs are strictly increasing for the life of a store, across
// restarts and when the wall clock steps back: before the oracle hands out a
// TSO whose physical part reaches the persisted window end, it durably
// advances the window end, and after a restart it starts past it.
package tso

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	"loadgw/clock"
	"loadgw/storage"
)

// LogicalBits is the width of the logical counter.
const LogicalBits = 18

const maxLogical = 1<<LogicalBits - 1

// Compose builds a TSO from its parts.
func Compose(physicalMs int64, logical int64) uint64 {
	return uint64(physicalMs)<<LogicalBits | uint64(logical)&maxLogical
}

// Physical is the millisecond part of t (0 for t <= 0, as Doris).
func Physical(t uint64) int64 {
	if int64(t) <= 0 {
		return 0
	}
	return int64(t >> LogicalBits)
}

// Logical is the counter part of t.
func Logical(t uint64) int64 { return int64(t & maxLogical) }

// windowKey stores the persisted window end (physical ms, 8 bytes big endian).
var windowKey = []byte(storage.KeyTSOWindow)

// Options configures an Oracle. The zero value is the default.
type Options struct {
	// Window is how far past the current physical time the persisted window
	// end is set each time it is advanced. The default value is 3s.
	Window time.Duration
}

// Oracle allocates TSOs. It is safe for concurrent use.
type Oracle struct {
	db    *storage.DB
	clock clock.Clock
	win   int64 // window length, ms

	mu        sync.Mutex
	physical  int64 // physical part of the last TSO handed out
	logical   int64
	windowEnd int64 // persisted: no TSO has physical >= windowEnd
}

// Open loads the persisted window end and returns an oracle whose first TSO is
// past every TSO handed out before.
func Open(db *storage.DB, c clock.Clock, opts Options) (*Oracle, error) {
	if opts.Window <= 0 {
		opts.Window = 3 * time.Second
	}
	o := &Oracle{db: db, clock: c, win: opts.Window.Milliseconds()}
	b, err := db.Get(windowKey)
	switch {
	case errors.Is(err, storage.ErrNotFound):
	case err != nil:
		return nil, fmt.Errorf("cannot read TSO window: %w", err)
	case len(b) != 8:
		return nil, fmt.Errorf("cannot read TSO window: corrupt value of %d bytes", len(b))
	default:
		o.windowEnd = int64(binary.BigEndian.Uint64(b))
		// Everything handed out before had physical < windowEnd, so
		// (windowEnd, 0) is a floor that no earlier TSO reached; the first
		// new TSO is above it.
		o.physical = o.windowEnd
	}
	return o, nil
}

// Next returns a new TSO, greater than every TSO returned before.
func (o *Oracle) Next() (uint64, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.clock.Now().UnixMilli()
	phys, logical := o.physical, o.logical+1
	if now > phys {
		phys, logical = now, 0
	}
	if logical > maxLogical {
		phys, logical = phys+1, 0
	}
	if phys >= o.windowEnd {
		end := phys + o.win
		if err := o.persist(end); err != nil {
			return 0, err
		}
		o.windowEnd = end
	}
	o.physical, o.logical = phys, logical
	return Compose(phys, logical), nil
}

func (o *Oracle) persist(end int64) error {
	return o.db.Update(func(b *storage.Batch) error {
		b.Set(windowKey, binary.BigEndian.AppendUint64(nil, uint64(end)))
		return nil
	})
}

// Status is what GET /api/tso reports.
type Status struct {
	WindowEndPhysicalTime int64  `json:"window_end_physical_time"`
	CurrentTSO            uint64 `json:"current_tso"`
	CurrentPhysical       int64  `json:"current_tso_physical_time"`
	CurrentLogical        int64  `json:"current_tso_logical_counter"`
}

// Current reports the oracle's state without advancing it. CurrentTSO is the
// last TSO handed out, or after a restart a floor above every earlier TSO
// and below the next one.
func (o *Oracle) Current() Status {
	o.mu.Lock()
	defer o.mu.Unlock()
	return Status{
		WindowEndPhysicalTime: o.windowEnd,
		CurrentTSO:            Compose(o.physical, o.logical),
		CurrentPhysical:       o.physical,
		CurrentLogical:        o.logical,
	}
}

// ReadTSO is the reference TSO for a statement: a TSO no smaller than any
// committed one, with the current wall-clock physical part when the clock is
// ahead. It does not advance the oracle.
func (o *Oracle) ReadTSO() uint64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.clock.Now().UnixMilli()
	if now > o.physical {
		return Compose(now, 0)
	}
	return Compose(o.physical, o.logical)
}
