package load

import "testing"

// TestBatchRows: batches grow from rampFirstRows to srcBatchRows, doubling,
// and never outgrow the batch's buffers (srcBatchRows rows).
func TestBatchRows(t *testing.T) {
	want := []int{128, 256, 512, 1024, 1024, 1024}
	for n, w := range want {
		if got := batchRows(n); got != w {
			t.Errorf("batchRows(%d) = %d, want %d", n, got, w)
		}
	}
	for n := 0; n < 100; n++ {
		if got := batchRows(n); got < 1 || got > srcBatchRows {
			t.Fatalf("batchRows(%d) = %d, outside 1..%d", n, got, srcBatchRows)
		}
	}
}
