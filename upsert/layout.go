package upsert

import (
	"errors"
	"sync/atomic"

	"loadgw/catalog"
)

// ErrKeyLayoutChanged refuses rows encoded for a table whose key columns
// have changed since (a schema change rewrote its stored rows under a new
// key encoding): committed, they would sit in the old layout among
// rewritten rows.
var ErrKeyLayoutChanged = errors.New("the table's key columns changed since its rows were encoded")

// SetLayoutCheck installs check, which every commit calls in the serial
// section with the table its rows were encoded for; a commit it fails
// writes nothing and returns its error (which should wrap
// ErrKeyLayoutChanged). A schema change that re-keys rows holds the
// serial section (Lock) while it publishes, so a commit sees the table
// either before or after it. The default is no check.
func (w *Writer) SetLayoutCheck(check func(t *catalog.Table) error) { w.layout.Store(&check) }

// checkLayout runs the layout check on the table of rc. REQUIRES: w.mu
// held.
func (w *Writer) checkLayout(rc *catalog.RowCodec) error {
	if f := w.layout.Load(); f != nil {
		return (*f)(rc.Table())
	}
	return nil
}

type layoutCheck = atomic.Pointer[func(t *catalog.Table) error]
