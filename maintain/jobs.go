package maintain

import (
	"time"

	"loadgw/engine"
	"loadgw/errorlog"
	"loadgw/loadtxn"
)

// Jobs are loadgw's background jobs, in the order a round runs them:
// finished labels expire before pre-commits time out (as Doris's
// removeExpiredAndTimeoutTxns), then error logs, expired rows and expired
// change records are removed.
func Jobs(e *engine.Engine, loads *loadtxn.Manager, errs *errorlog.Log) []Job {
	return ObservedJobs(e, loads, errs, nil)
}

// ObservedJobs are Jobs that also report what the reclamation jobs removed
// to onReclaim (what is "ttl_rows", "binlog_table_cleanups" or
// "binlog_records"), when not nil.
func ObservedJobs(e *engine.Engine, loads *loadtxn.Manager, errs *errorlog.Log, onReclaim func(what string, n int)) []Job {
	if onReclaim == nil {
		onReclaim = func(string, int) {}
	}
	return []Job{
		Func("expire labels", loads.ExpireLabels),
		Func("abort pre-committed loads past their timeout", loads.AbortTimedOut),
		Func("clean error logs", func(now time.Time) error {
			_, err := errs.Cleanup(now)
			return err
		}),
		Func("reclaim expired rows", func(time.Time) error {
			n, err := e.ReclaimTTL()
			onReclaim("ttl_rows", n)
			return err
		}),
		Func("remove expired change records", func(time.Time) error {
			n, records, err := e.ReclaimBinlogRecords()
			onReclaim("binlog_table_cleanups", n)
			onReclaim("binlog_records", records)
			return err
		}),
	}
}
