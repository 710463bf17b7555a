package maintain_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"loadgw/clock"
	"loadgw/maintain"
)

// TestRunOnce: a round runs every job once, in order, with the clock's
// time; a job's failure is logged as "cannot <name>" with its error and
// the later jobs still run.
func TestRunOnce(t *testing.T) {
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	core, logs := observer.New(zap.WarnLevel)
	var ran []string
	job := func(name string, err error) maintain.Job {
		return maintain.Func(name, func(at time.Time) error {
			ran = append(ran, fmt.Sprintf("%s@%s", name, at.Format("15:04")))
			return err
		})
	}
	l := maintain.New(maintain.Options{Clock: clock.NewManual(now), Logger: zap.New(core)},
		job("expire labels", nil), job("clean error logs", errors.New("disk gone")), job("reclaim expired rows", nil))
	l.RunOnce()
	if got := strings.Join(ran, " "); got != "expire labels@10:00 clean error logs@10:00 reclaim expired rows@10:00" {
		t.Errorf("ran %s", got)
	}
	var got []string
	for _, e := range logs.All() {
		got = append(got, fmt.Sprintf("%s: %v", e.Message, e.ContextMap()["error"]))
	}
	if want := "cannot clean error logs: disk gone"; strings.Join(got, "; ") != want {
		t.Errorf("logged %q, want %q", got, want)
	}
}
