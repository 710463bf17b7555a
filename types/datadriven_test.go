package types

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
)

// TestDataDriven runs the scripts in testdata/types. Commands:
//
//	parsetype                      lines: SQL type → Type.String or error
//	parse type=T [strict] [tz=Z] [ftz=Z]
//	                               lines: text (Go-quoted if it starts with ")
//	                               → Format(ParseValue) in ftz (default tz)
//	cast from=T to=T [tz=Z]        lines: text parsed as from, cast to "to"
//	compare                        lines: T:text | T:text → -1, 0, 1
//	checkfits type=T               lines: T-typed text (parsed with the
//	                               type's kind unconstrained) → ok or error
//	int128                         lines: op a [b] (add sub mul quo rem neg
//	                               cmp str float)
//	decimal op=OP scale=S [prec=P] lines: decimal texts (each at its own
//	                               scale) → result at scale S
//	civil                          lines: fn args (days, date, micros,
//	                               add_months, add_days, round)
//	element path=P                 lines: VARIANT text → VariantElement at P
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "../testdata/types", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			var out strings.Builder
			for _, line := range strings.Split(d.Input, "\n") {
				if line == "" {
					continue
				}
				fmt.Fprintf(&out, "%s → %s\n", line, runLine(t, d, line))
			}
			return out.String()
		})
	})
}

func runLine(t *testing.T, d *datadriven.TestData, line string) string {
	switch d.Cmd {
	case "parsetype":
		typ, err := ParseTypeString(line)
		if err != nil {
			return errText(err)
		}
		return typ.String()
	case "parse":
		return runParse(t, d, line)
	case "cast":
		return runCast(t, d, line)
	case "compare":
		return runCompare(t, line)
	case "checkfits":
		return runCheckFits(t, d, line)
	case "int128":
		return runInt128(t, line)
	case "decimal":
		return runDecimal(t, d, line)
	case "civil":
		return runCivil(t, line)
	case "element":
		return runVariantElement(t, d, line)
	}
	t.Fatalf("%s: unknown command %s", d.Pos, d.Cmd)
	return ""
}

func errText(err error) string {
	kind := "?"
	for _, s := range []error{ErrInvalidType, ErrInvalidValue, ErrOutOfRange, ErrTooLong, ErrUnsupportedCast} {
		if errors.Is(err, s) {
			kind = s.Error()
		}
	}
	return fmt.Sprintf("error(%s): %s", kind, err)
}

func unquote(t *testing.T, s string) string {
	if strings.HasPrefix(s, `"`) {
		u, err := strconv.Unquote(s)
		if err != nil {
			t.Fatalf("bad quoted input %s: %v", s, err)
		}
		return u
	}
	return s
}

func typeArg(t *testing.T, d *datadriven.TestData, key string) Type {
	var s string
	d.ScanArgs(t, key, &s)
	typ, err := ParseTypeString(s)
	if err != nil {
		t.Fatalf("%s: %v", d.Pos, err)
	}
	return typ
}

func zoneArg(t *testing.T, d *datadriven.TestData, key string, def *time.Location) *time.Location {
	if !d.HasArg(key) {
		return def
	}
	var s string
	d.ScanArgs(t, key, &s)
	loc, err := time.LoadLocation(s)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// show formats a value with its kind for kinds whose text is ambiguous.
func show(v Value, loc *time.Location) string {
	if v.IsNull() {
		return "NULL"
	}
	return fmt.Sprintf("%s %s", v.Kind, Format(v, loc))
}

func runParse(t *testing.T, d *datadriven.TestData, line string) string {
	typ := typeArg(t, d, "type")
	loc := zoneArg(t, d, "tz", time.UTC)
	ftz := zoneArg(t, d, "ftz", loc)
	parse := ParseValue
	if d.HasArg("strict") {
		parse = ParseValueStrict
	}
	v, err := parse(unquote(t, line), typ, loc)
	if err != nil {
		return errText(err)
	}
	return show(v, ftz)
}

func runCast(t *testing.T, d *datadriven.TestData, line string) string {
	from, to := typeArg(t, d, "from"), typeArg(t, d, "to")
	loc := zoneArg(t, d, "tz", time.UTC)
	v, err := ParseValue(unquote(t, line), from, loc)
	if err != nil {
		t.Fatalf("%s: cannot parse %q as %s: %v", d.Pos, line, from, err)
	}
	r, err := Cast(v, to, loc)
	if err != nil {
		return errText(err)
	}
	return show(r, loc)
}

func operand(t *testing.T, s string) Value {
	typName, text, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		t.Fatalf("operand %q is not type:text", s)
	}
	typ, err := ParseTypeString(typName)
	if err != nil {
		t.Fatal(err)
	}
	if text == "NULL" {
		return NullValue
	}
	v, err := ParseValue(unquote(t, text), typ, time.UTC)
	if err != nil {
		t.Fatalf("operand %q: %v", s, err)
	}
	return v
}

func runCompare(t *testing.T, line string) string {
	a, b, ok := strings.Cut(line, "|")
	if !ok {
		t.Fatalf("compare line %q needs |", line)
	}
	va, vb := operand(t, a), operand(t, b)
	c := Compare(va, vb)
	if r := Compare(vb, va); r != -c {
		t.Fatalf("Compare is not antisymmetric for %q: %d and %d", line, c, r)
	}
	return strconv.Itoa(c)
}

func runCheckFits(t *testing.T, d *datadriven.TestData, line string) string {
	typ := typeArg(t, d, "type")
	free := Simple(typ.Kind)
	if typ.Kind == Decimal {
		free = DecimalType(38, int(typ.Scale))
	}
	v, err := ParseValue(unquote(t, line), free, time.UTC)
	if err != nil {
		return errText(err)
	}
	if err := CheckFits(v, typ); err != nil {
		return errText(err)
	}
	return "ok"
}

func mustInt128(t *testing.T, s string) Int128 {
	x, err := ParseInt128(s)
	if err != nil {
		t.Fatalf("bad int128 %q: %v", s, err)
	}
	return x
}

func runInt128(t *testing.T, line string) string {
	f := strings.Fields(line)
	show := func(x Int128, ok bool) string {
		if !ok {
			return "overflow"
		}
		return x.String()
	}
	switch f[0] {
	case "parse":
		x, err := ParseInt128(f[1])
		if err != nil {
			return errText(err)
		}
		return x.String()
	case "neg":
		return show(mustInt128(t, f[1]).Neg())
	case "float":
		return strconv.FormatFloat(mustInt128(t, f[1]).Float64(), 'g', -1, 64)
	case "fromfloat":
		fl, _ := strconv.ParseFloat(f[1], 64)
		return show(Int128FromFloat64(fl))
	}
	a, b := mustInt128(t, f[1]), mustInt128(t, f[2])
	switch f[0] {
	case "add":
		return show(a.Add(b))
	case "sub":
		return show(a.Sub(b))
	case "mul":
		return show(a.Mul(b))
	case "quo":
		return show(a.Quo(b))
	case "rem":
		return show(a.Rem(b))
	case "cmp":
		return strconv.Itoa(a.Cmp(b))
	}
	t.Fatalf("unknown int128 op %q", f[0])
	return ""
}

// decText parses a decimal literal at its own scale.
func decText(t *testing.T, s string) (Int128, int) {
	scale := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		scale = len(s) - i - 1
	}
	x, err := ParseDecimal(s, 38, scale)
	if err != nil {
		t.Fatalf("bad decimal %q: %v", s, err)
	}
	return x, scale
}

func runDecimal(t *testing.T, d *datadriven.TestData, line string) string {
	var op string
	var scale int
	d.ScanArgs(t, "op", &op)
	d.ScanArgs(t, "scale", &scale)
	prec := 38
	if d.HasArg("prec") {
		d.ScanArgs(t, "prec", &prec)
	}
	f := strings.Fields(line)
	if op == "fromfloat" {
		fl, _ := strconv.ParseFloat(f[0], 64)
		r, ok := DecimalFromFloat64(fl, prec, scale)
		if !ok {
			return "overflow"
		}
		return FormatDecimal(r, scale)
	}
	a, sa := decText(t, f[0])
	var r Int128
	ok := true
	switch op {
	case "rescale":
		r, ok = RescaleDecimal(a, sa, scale)
	case "tofloat":
		return strconv.FormatFloat(DecimalToFloat64(a, sa), 'g', -1, 64)
	default:
		b, sb := decText(t, f[1])
		switch op {
		case "add":
			r, ok = DecimalAdd(a, sa, b, sb, scale)
		case "sub":
			r, ok = DecimalSub(a, sa, b, sb, scale)
		case "mul":
			r, ok = DecimalMul(a, sa, b, sb, scale)
		case "div":
			r, ok = DecimalDiv(a, sa, b, sb, scale)
		default:
			t.Fatalf("unknown decimal op %q", op)
		}
	}
	if !ok {
		return "overflow"
	}
	if !DecimalFits(r, prec) {
		return "exceeds precision " + strconv.Itoa(prec)
	}
	return FormatDecimal(r, scale)
}

func parseDateArg(t *testing.T, s string) int64 {
	v, err := ParseValue(s, Simple(Date), nil)
	if err != nil {
		t.Fatal(err)
	}
	return v.I
}

func parseDateTimeArg(t *testing.T, s string) int64 {
	v, err := ParseValue(s, DateTimeType(6), nil)
	if err != nil {
		t.Fatal(err)
	}
	return v.I
}

func runCivil(t *testing.T, line string) string {
	fn, rest, _ := strings.Cut(line, " ")
	args := strings.Split(rest, ",")
	for i := range args {
		args[i] = strings.TrimSpace(args[i])
	}
	atoi := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	fmtDate := func(days int64, ok bool) string {
		if !ok {
			return "out of range"
		}
		return Format(NewDate(days), nil)
	}
	fmtDT := func(us int64, ok bool) string {
		if !ok {
			return "out of range"
		}
		return Format(NewDateTime(us, 6), nil)
	}
	switch fn {
	case "days": // days y,m,d
		return strconv.FormatInt(DaysFromCivil(int(atoi(args[0])), int(atoi(args[1])), int(atoi(args[2]))), 10)
	case "date": // date days
		y, m, d := CivilFromDays(atoi(args[0]))
		return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
	case "micros": // micros datetime
		return strconv.FormatInt(parseDateTimeArg(t, args[0]), 10)
	case "add_months": // add_months date, n
		return fmtDate(AddMonthsToDays(parseDateArg(t, args[0]), atoi(args[1])))
	case "add_months_dt":
		return fmtDT(AddMonthsToMicros(parseDateTimeArg(t, args[0]), atoi(args[1])))
	case "add_days":
		return fmtDate(AddDays(parseDateArg(t, args[0]), atoi(args[1])))
	case "add_micros":
		return fmtDT(AddMicros(parseDateTimeArg(t, args[0]), atoi(args[1])))
	case "round": // round datetime, scale
		return fmtDT(RoundMicros(parseDateTimeArg(t, args[0]), int(atoi(args[1]))), true)
	}
	t.Fatalf("unknown civil fn %q", fn)
	return ""
}
