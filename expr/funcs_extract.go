package expr

import (
	"strings"

	"loadgw/types"
)

// EXTRACT(unit FROM x), which the parser turns into extract('UNIT', x), is
// the unit's own function of x, as Doris rewrites it: year(x), month(x), ...
func init() {
	register(&funcDef{min: 2, max: 2, raw: rawExtract}, "extract")
}

var extractUnits = map[string]string{
	"YEAR": "year", "QUARTER": "quarter", "MONTH": "month", "WEEK": "week", "DAY": "day",
	"HOUR": "hour", "MINUTE": "minute", "SECOND": "second", "MICROSECOND": "microsecond",
}

func rawExtract(b *binder, _ string, args []Expr) (Compiled, error) {
	lit, ok := args[0].(*Literal)
	if !ok || lit.Val.Kind != types.Varchar {
		return nil, errorf("extract requires a time unit")
	}
	fn, ok := extractUnits[strings.ToUpper(lit.Val.S)]
	if !ok || funcs[fn] == nil {
		return nil, errorf("Unsupported time unit in extract: %s", lit.Val.S)
	}
	return b.bind(&Call{P: lit.P, Name: fn, Args: args[1:]})
}
