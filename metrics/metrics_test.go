package metrics

import (
	"testing"
	"time"
)

// BenchmarkObserveLoad is what counting adds to each stream load.
func BenchmarkObserveLoad(b *testing.B) {
	m := New(Sources{})
	l := Load{DB: "d", Table: "t", Status: "Success", Began: true, Committed: true, Total: 1000, Loaded: 1000,
		Bytes: 1 << 20, Receive: time.Millisecond, Commit: 2 * time.Millisecond, Duration: 3 * time.Millisecond}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m.ObserveLoad(l)
	}
	if got := m.Totals().Loads; got != int64(b.N) {
		b.Fatalf("counted %d loads of %d", got, b.N)
	}
}
