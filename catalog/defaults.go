package catalog

import (
	"fmt"
	"time"

	"loadgw/types"
)

// FillDefaults gives every column not set its default, with Doris's errors
// for NOT NULL columns without one.
func (t *Table) FillDefaults(row []types.Value, set []bool, now time.Time, loc *time.Location) error {
	for i, c := range t.Columns {
		if set[i] || c.Virtual {
			continue
		}
		v, err := c.DefaultValue(now, loc)
		if err != nil {
			return err
		}
		row[i] = v
	}
	return nil
}

// DefaultValue is the value an omitted column takes: its DEFAULT evaluated
// at now in loc, NULL, or Doris's error for a NOT NULL column without one.
func (c *Column) DefaultValue(now time.Time, loc *time.Location) (types.Value, error) {
	d := c.Default
	switch {
	case d == nil && (c.Type.Kind == types.HLL || c.Type.Kind == types.Bitmap):
		return types.Zero(c.Type), nil // Doris's implicit HLL_EMPTY / BITMAP_EMPTY default
	case d == nil || d.Kind == DefaultNull:
		if c.Nullable || c.AutoInc {
			return types.NullValue, nil
		}
		return types.NullValue, fmt.Errorf("Column has no default value, column=%s", c.Name)
	case d.Kind == DefaultCurrentTimestamp:
		local := now.In(loc)
		_, off := local.Zone()
		micros := now.UnixMicro() + int64(off)*1e6
		return types.Value{Kind: types.DateTime, Scale: c.Type.Scale, I: types.TruncMicros(micros, d.Precision)}, nil
	case d.Kind == DefaultBitmapEmpty:
		return types.NewString(types.Bitmap, ""), nil
	case d.Kind == DefaultCurrentDate:
		local := now.In(loc)
		return types.NewInt(types.Date, types.DaysFromCivil(local.Year(), int(local.Month()), local.Day())), nil
	}
	v, err := types.ParseValue(d.Text, c.Type, loc)
	if err != nil {
		return v, fmt.Errorf("Invalid default value for '%s': %s", c.Name, err.Error())
	}
	return v, nil
}

// AddedValueFunc returns the value a stored row written before column col
// was added shows for it: the column's default (NULL without one), as of
// now in loc. Row decoders take it as their fill function.
func (t *Table) AddedValueFunc(now time.Time, loc *time.Location) func(col int) types.Value {
	return func(col int) types.Value {
		c := t.Columns[col]
		v, err := c.DefaultValue(now, loc)
		if err != nil {
			return types.Zero(c.Type)
		}
		return v
	}
}
