package maintain_test

import (
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"loadgw/clock"
	"loadgw/maintain"
)

// TestRunOncePanic: a job that panics does not take the process down (the
// loop runs on a goroutine of its own, where nothing else recovers): the
// panic is logged with its stack as "cannot <name>", the later jobs run,
// and the next round runs the job again.
func TestRunOncePanic(t *testing.T) {
	core, logs := observer.New(zap.WarnLevel)
	calls := 0
	ran := 0
	l := maintain.New(maintain.Options{Clock: clock.NewManual(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)), Logger: zap.New(core)},
		maintain.Func("reclaim expired rows", func(time.Time) error {
			calls++
			var m map[string]int
			m["x"] = 1 // a nil-map write: a runtime panic
			return nil
		}),
		maintain.Func("remove expired change records", func(time.Time) error { ran++; return nil }))
	l.RunOnce()
	l.RunOnce()
	if calls != 2 || ran != 2 {
		t.Fatalf("the panicking job ran %d times and the next %d times, want 2 and 2", calls, ran)
	}
	entries := logs.All()
	if len(entries) != 2 {
		t.Fatalf("logged %d entries, want 2", len(entries))
	}
	e := entries[0]
	if e.Message != "cannot reclaim expired rows" {
		t.Errorf("message %q", e.Message)
	}
	if err, _ := e.ContextMap()["error"].(string); !strings.Contains(err, "assignment to entry in nil map") {
		t.Errorf("error %q does not name the panic", err)
	}
	if stack, _ := e.ContextMap()["stack"].(string); !strings.Contains(stack, "recover_test.go") {
		t.Errorf("the entry's stack does not show where the panic happened:\n%s", stack)
	}
}
