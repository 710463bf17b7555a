// Package maintain runs loadgw's background jobs (label expiry, pre-commit
// timeouts, error-log cleanup, TTL reclamation, change-record cleanup) on
// one loop, each through the Job interface, logging what fails.
package maintain

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"go.uber.org/zap"

	"loadgw/clock"
)

// Job is one background job. Run does one round of it at now; a failed
// round is logged and the job runs again at the next tick.
type Job interface {
	// Name says what the job does, as a verb phrase: a failure is logged
	// as "cannot <Name>".
	Name() string
	Run(now time.Time) error
}

// Func makes a Job of a name and a function.
func Func(name string, run func(now time.Time) error) Job { return funcJob{name, run} }

type funcJob struct {
	name string
	run  func(now time.Time) error
}

func (j funcJob) Name() string            { return j.name }
func (j funcJob) Run(now time.Time) error { return j.run(now) }

// Options configures a Loop. The zero value is the default.
type Options struct {
	// Interval is the time between two rounds. The default value is 30 s,
	// as Doris's transaction cleaner.
	Interval time.Duration
	// Clock gives each round its time. The default value is the system
	// clock.
	Clock clock.Clock
	// Logger receives the jobs' failures. The default value discards them.
	Logger *zap.Logger
}

// Loop runs a list of jobs in rounds.
type Loop struct {
	opts Options
	jobs []Job
}

// New returns a loop that runs jobs in their order in every round.
func New(opts Options, jobs ...Job) *Loop {
	if opts.Interval <= 0 {
		opts.Interval = 30 * time.Second
	}
	if opts.Clock == nil {
		opts.Clock = clock.System{}
	}
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	return &Loop{opts: opts, jobs: jobs}
}

// RunOnce runs one round: every job once, in order, with one reference
// time. A job's failure is logged and does not stop the others.
func (l *Loop) RunOnce() {
	now := l.opts.Clock.Now()
	for _, j := range l.jobs {
		l.runJob(j, now)
	}
}

// runJob runs one job and logs its failure. The loop runs on a goroutine of
// its own, where nothing else would recover a panic: a panicking job is
// logged with its stack as failed, and runs again next round.
func (l *Loop) runJob(j Job, now time.Time) {
	defer func() {
		if p := recover(); p != nil {
			l.opts.Logger.Error("cannot "+j.Name(), zap.Error(fmt.Errorf("panic: %v", p)),
				zap.ByteString("stack", debug.Stack()))
		}
	}()
	if err := j.Run(now); err != nil {
		l.opts.Logger.Warn("cannot "+j.Name(), zap.Error(err))
	}
}

// Run runs a round at once and then every Interval until ctx ends.
func (l *Loop) Run(ctx context.Context) {
	l.RunOnce()
	t := time.NewTicker(l.opts.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			l.RunOnce()
		}
	}
}
