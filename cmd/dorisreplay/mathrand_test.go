package main

import (
	"testing"
	"time"
)

func TestMathCall(t *testing.T) {
	for _, c := range []struct {
		name string
		args []value
		want value
	}{
		{"random", nil, 0.0},
		{"floor", []value{3.7}, 3.0},
		{"ceil", []value{int64(3)}, 3.0},
		{"abs", []value{int64(-4)}, int64(4)},
		{"max", []value{int64(2), int64(5)}, int64(5)},
		{"min", []value{int64(2), int64(5)}, int64(2)},
		{"min", []value{2.5, int64(5)}, 2.5},
	} {
		got, ok := mathCall(c.name, c.args)
		if !ok || got != c.want {
			t.Errorf("Math.%s(%v) = %v, %v; want %v", c.name, c.args, got, ok, c.want)
		}
	}
	if _, ok := mathCall("sqrt", []value{4.0}); ok {
		t.Errorf("Math.sqrt is not modelled but was answered")
	}
	if v, ok := randomMethod("nextInt"); !ok || v != int64(0) {
		t.Errorf("nextInt = %v, %v", v, ok)
	}
}

// TestRandomDraws replays test_random.groovy: Math.random() and
// Random.nextInt draw 0, `int n = Math.floor(...)` holds 0 (not 0.0, which
// the VARIANT property would reject), the table it configures exists, and
// a closure parameter defaulting to a parenthesised expression parses, and
// a \uXXXX escape is the character.
func TestRandomDraws(t *testing.T) {
	res := runSuite(dirSource{"testdata"}, "regression-test/suites/demo/test_random.groovy", time.Minute)
	if res.Error != "" {
		t.Fatalf("suite error: %s", res.Error)
	}
	if res.Passed != 7 || res.Failed != 0 || res.Skipped != 0 || res.StmtErrors != 0 {
		t.Fatalf("passed %d failed %d skipped %d stmt errors %d; want 7 0 0 0\nfailures: %q\nskips: %q",
			res.Passed, res.Failed, res.Skipped, res.StmtErrors, res.Details, res.Skips)
	}
}
