package expr

import (
	"math"
	"time"

	"loadgw/types"
)

// The row TTL functions of Doris's row TTL feature (FE RowTtlIsVisible and
// RowTtlExpiration, BE function_row_ttl):
//
//	row_ttl_expiration(v) BIGINT: a direct-mode expiration in epoch
//	  microseconds; integers as they are, DATE and DATETIME read in the
//	  session time zone, TIMESTAMPTZ as its instant; NULL stays NULL.
//	row_ttl_is_visible(ttl, duration_us [, offset_seconds]) BOOLEAN, never
//	  NULL: whether a row whose hidden TTL column holds ttl is visible at
//	  the statement's time. An integer ttl is the expiration itself; a
//	  temporal ttl is a source value, which expires duration_us after it
//	  (DATE and DATETIME read at offset_seconds east of UTC, else in the
//	  session time zone). NULL never expires; a row expiring exactly now is
//	  not visible.
func init() {
	register(spec{min: 1, max: 1, ret: fixedType(tBigInt), fn: func(ctx *Context, a []types.Value) (types.Value, error) {
		us, err := ttlInstant(a[0], ctx.loc())
		if err != nil {
			return types.NullValue, err
		}
		return types.NewInt(types.BigInt, us), nil
	}}.def(), "row_ttl_expiration")
	register(spec{min: 2, max: 3, args: []argKind{aAny, aInt, aInt}, ret: fixedType(tBool), seesNull: true, volatile: true, fn: rowTTLIsVisible}.def(), "row_ttl_is_visible")
}

func rowTTLIsVisible(ctx *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.NewBool(true), nil
	}
	loc := ctx.loc()
	if len(a) == 3 && !a[2].IsNull() {
		loc = time.FixedZone("", int(a[2].I))
	}
	exp, err := ttlInstant(a[0], loc)
	if err != nil {
		return types.NullValue, err
	}
	if types.IsTemporal(a[0].Kind) && !a[1].IsNull() {
		if a[1].I > 0 && exp > math.MaxInt64-a[1].I {
			exp = math.MaxInt64
		} else {
			exp += a[1].I
		}
	}
	return types.NewBool(exp > ctx.now().UnixMicro()), nil
}

// ttlInstant is v as epoch microseconds: integers as they are, DATE and
// DATETIME read in loc, TIMESTAMPTZ as its instant.
func ttlInstant(v types.Value, loc *time.Location) (int64, error) {
	switch v.Kind {
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		return v.I, nil
	case types.LargeInt: // BIGINT arithmetic widens; Doris casts back
		if v.Hi == v.I>>63 {
			return v.I, nil
		}
		return 0, errorf("Arithmetic overflow when converting value to BIGINT")
	case types.Date:
		return types.LocalToUTC(v.I*types.MicrosPerDay, loc), nil
	case types.DateTime:
		return types.LocalToUTC(v.I, loc), nil
	case types.TimestampTZ:
		return v.I, nil
	}
	// Crafted: Doris picks a signature (BIGINT or a temporal type) at
	// analysis; loadgw takes only those.
	return 0, errorf("row ttl value must be BIGINT, DATE, DATETIME or TIMESTAMPTZ, not %s", v.Kind)
}
