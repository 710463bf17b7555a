//go:build sonicbench

// The sonic comparison is behind a build tag so that the package's tests do
// not depend on sonic being required by go.mod:
//
//	go test -tags sonicbench -run - -bench . ./jsonline/

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
