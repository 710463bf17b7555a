package expr

import "loadgw/types"

// MaxValueBytes bounds one value a function or aggregate builds: a string,
// or the encoding of an ARRAY, MAP or STRUCT. Doris bounds a string column
// at 4 GiB (ColumnString::check_chars_length); loadgw holds values in one
// process's memory, so a value stops at 64 MiB, with Doris's text. Functions
// that multiply their input (repeat, space, lpad, rpad, concat, concat_ws,
// replace, array_with_constant, group_concat, collect_list) check the size
// before they allocate, and every call's result is checked after, so that a
// tiny query cannot ask for gigabytes.
const MaxValueBytes = 64 << 20

// maxArgsBytes bounds the arguments of one call together (each may be up to
// MaxValueBytes), and the constants one expression folds at bind time.
const maxArgsBytes = 4 * MaxValueBytes

// checkValueBytes returns Doris's error when a value of n bytes would be
// larger than MaxValueBytes. n may have overflowed to a negative number.
func checkValueBytes(n int64) error {
	if n < 0 || n > MaxValueBytes {
		return errorf("string column length is too large: total_length=%d, element_number=0, rows=0", max(n, 0))
	}
	return nil
}

// mulBytes is a*b, or -1 when the product overflows or a or b is negative.
func mulBytes(a, b int64) int64 {
	if a < 0 || b < 0 {
		return -1
	}
	if a != 0 && b > (1<<62)/a {
		return -1
	}
	return a * b
}

// checkResultBytes is checkValueBytes for a value a function returned.
func checkResultBytes(v types.Value) error {
	if len(v.S) > MaxValueBytes {
		return checkValueBytes(int64(len(v.S)))
	}
	return nil
}

// sumBytes is extra plus the bytes of the strings (or encodings) in a.
func sumBytes(a []types.Value, extra int64) int64 {
	for _, v := range a {
		extra += int64(len(v.S))
	}
	return extra
}

// addBytes is a+b, or -1 when either is -1 (an overflowed size) or the sum
// overflows.
func addBytes(a, b int64) int64 {
	if a < 0 || b < 0 || a > 1<<62 || b > 1<<62 {
		return -1
	}
	return a + b
}
