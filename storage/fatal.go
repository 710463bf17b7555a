package storage

import (
	"errors"
	"fmt"
	"os"

	"github.com/cockroachdb/pebble/v2"
)

// ErrStopped is returned by writes to a store that met a fatal error.
var ErrStopped = errors.New("store stopped after a fatal error")

// storeLogger is the Pebble logger of a DB: quiet, except that Pebble's
// Fatalf stops the store (see fatal).
type storeLogger struct{ db *DB }

func (storeLogger) Infof(string, ...interface{})  {}
func (storeLogger) Errorf(string, ...interface{}) {}

func (l storeLogger) Fatalf(format string, args ...interface{}) {
	l.db.fatal(errors.New("pebble: " + fmt.Sprintf(format, args...)))
}

// fatal stops the store after an error Pebble cannot recover from. It never
// returns: Pebble calls it holding its locks and, were it to return, would
// carry on (a failed WAL write would report the commit as done), and a
// panic unwinding through Pebble would release locks it does not hold.
func (db *DB) fatal(err error) {
	db.stopped.CompareAndSwap(nil, &err)
	if db.opts.OnFatal == nil {
		fmt.Fprintf(os.Stderr, "loadgw: store in %s failed, stopping: %v\n", db.dir, err)
		os.Exit(1)
	}
	db.opts.OnFatal(err)
	select {}
}

// checkStopped returns an error wrapping ErrStopped once the store met a
// fatal error.
func (db *DB) checkStopped() error {
	if p := db.stopped.Load(); p != nil {
		return fmt.Errorf("cannot write: %w (%v)", ErrStopped, *p)
	}
	return nil
}

// apiMisuse is Pebble's report of a misuse it noticed in a flush or
// compaction. A single deletion that met a second set of its key
// (Batch.SingleDelete's contract broken, the key's older value may come
// back) is counted; a single deletion that found nothing to delete (the
// key was already removed by a Delete or a range deletion, e.g. a TTL
// purge or a DROP) is harmless and ignored.
func (db *DB) apiMisuse(info pebble.PossibleAPIMisuseInfo) {
	if info.Kind == pebble.NondeterministicSingleDelete && db.singleDelMisuse.Add(1) == 1 {
		// Once per store: the data may already be wrong, and tests read
		// the count; the message says where to look.
		fmt.Fprintf(os.Stderr, "loadgw: BUG: store in %s: a single deletion met a second set of key %x (a row version written twice?)\n", db.dir, info.UserKey)
	}
}

// SingleDeleteMisuse is the number of single deletions the store's flushes
// and compactions found deleting a key that was set more than once since
// the store opened; it must stay 0 (tests check it after compacting).
func (db *DB) SingleDeleteMisuse() int64 { return db.singleDelMisuse.Load() }
