package main

import "math"

// Math.* and java.util.Random, which some suites use to pick a setting at
// random (variant_p0: a VARIANT's variant_max_subcolumns_count). A replay
// must be repeatable, so every draw is fixed: Math.random() is 0.0 and
// Random.nextInt(n) is 0 (the first choice of the suite).

// randomVal is new Random(...).
type randomVal struct{}

// mathCall runs Math.name(args); ok is false for a method not modelled.
func mathCall(name string, args []value) (value, bool) {
	num := func(i int) (float64, bool) {
		if i >= len(args) {
			return 0, false
		}
		switch v := args[i].(type) {
		case int64:
			return float64(v), true
		case float64:
			return v, true
		}
		return 0, false
	}
	a, okA := num(0)
	b, okB := num(1)
	switch name {
	case "random":
		return 0.0, true
	case "floor":
		if okA {
			return math.Floor(a), true
		}
	case "ceil":
		if okA {
			return math.Ceil(a), true
		}
	case "abs":
		if v, ok := args[0].(int64); ok && len(args) == 1 {
			if v < 0 {
				v = -v
			}
			return v, true
		}
		if okA {
			return math.Abs(a), true
		}
	case "max", "min":
		if !okA || !okB {
			return nil, false
		}
		x, y := args[0], args[1]
		if _, isInt := x.(int64); isInt {
			if _, isInt := y.(int64); isInt {
				if (name == "max") == (x.(int64) > y.(int64)) {
					return x, true
				}
				return y, true
			}
		}
		if name == "max" {
			return math.Max(a, b), true
		}
		return math.Min(a, b), true
	case "pow":
		if okA && okB {
			return math.Pow(a, b), true
		}
	}
	return nil, false
}

// randomMethod runs the methods of a Random with the fixed draws.
func randomMethod(name string) (value, bool) {
	switch name {
	case "nextInt", "nextLong":
		return int64(0), true
	case "nextBoolean":
		return false, true
	case "nextDouble", "nextFloat":
		return 0.0, true
	}
	return nil, false
}
