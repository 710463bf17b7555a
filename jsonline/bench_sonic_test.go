//go:build sonicbench

// The sonic comparison needs sonic's go.sum entries, which the module does
// not have yet; run it with -tags sonicbench once they are there (or with a
// temporary -modfile).

package jsonline

import (
	"testing"

	"github.com/bytedance/sonic"
)

// BenchmarkSonicStruct is the context figure of PERFORMANCE.md: sonic
// decoding the same lines into a struct (~4.1M rows/s there).
func BenchmarkSonicStruct(b *testing.B) {
	benchStruct(b, sonic.Unmarshal)
}
