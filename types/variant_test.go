package types

import (
	"testing"

	"github.com/cockroachdb/datadriven"
)

func runVariantElement(t *testing.T, d *datadriven.TestData, line string) string {
	var path string
	d.ScanArgs(t, "path", &path)
	v, err := ParseVariant(unquote(t, line))
	if err != nil {
		return errText(err)
	}
	e, ok := VariantElement(v, path)
	if !ok {
		return "NULL"
	}
	return e.S
}
