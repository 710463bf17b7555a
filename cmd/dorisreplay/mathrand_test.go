package main

import "testing"

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
