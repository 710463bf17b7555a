package types

// This file declares the API the rest of loadgw programs against while the
// package is being built. The types helper replaces every body (and this
// comment) with the real implementation, in files of its own choosing.

import "time"

// Int128 is a signed 128-bit two's complement integer, used by LARGEINT and as
// the unscaled value of DECIMAL.
type Int128 struct {
	Hi int64
	Lo uint64
}

// ParseType builds a Type from its SQL name (case-insensitive: "int",
// "varchar", "decimal", "datetime", "datetimev2", "decimalv3", "text", ...) and
// its parenthesised arguments, validating them with Doris's errors.
func ParseType(name string, args []int) (Type, error) { panic("unimplemented") }

// String spells t as Doris does in SHOW CREATE TABLE (e.g. "int", "varchar(16)",
// "decimal(10,2)", "datetime(6)", "text").
func (t Type) String() string { panic("unimplemented") }

// ParseValue converts text to a value of type t following Doris's cast from
// string (used for CSV fields, JSON strings, defaults and string literals
// assigned to typed columns). loc interprets zone-less text for TIMESTAMPTZ.
func ParseValue(s string, t Type, loc *time.Location) (Value, error) { panic("unimplemented") }

// Cast converts v (not NULL) to type to, with Doris's CAST semantics. An
// impossible conversion returns an error; callers that follow Doris's
// non-strict rules turn it into NULL.
func Cast(v Value, to Type, loc *time.Location) (Value, error) { panic("unimplemented") }

// CheckFits reports whether v, already of t's kind, fits column type t
// (VARCHAR/CHAR byte length, DECIMAL precision), with Doris's error text.
func CheckFits(v Value, t Type) error { panic("unimplemented") }

// Compare orders two non-NULL values of comparable kinds: numbers across
// kinds by numeric value, strings bytewise, dates and datetimes on one time
// line. It returns -1, 0 or +1.
func Compare(a, b Value) int { panic("unimplemented") }

// Format renders v as Doris displays it (NULL as "NULL"); TIMESTAMPTZ is shown
// in loc.
func Format(v Value, loc *time.Location) string { panic("unimplemented") }

// Zero is the zero value of t (0, "", 1970-01-01, ...) used where Doris fills a
// NOT NULL column that has no default.
func Zero(t Type) Value { panic("unimplemented") }

// TypeOf is the natural type of a value (for literals and results).
func TypeOf(v Value) Type { panic("unimplemented") }
