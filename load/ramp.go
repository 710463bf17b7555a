package load

// Batch sizes: a small first batch
//
// Reading (JSON or CSV parsing) and converting (mapping, casts, encoding)
// run on two goroutines handing over batches of source rows (run.go). With
// every batch srcBatchRows rows, a load of up to that many rows was one
// batch: the converter waited for the reader to parse the whole body, and
// the two stages ran one after the other on one core. A load's batches
// now grow from rampFirstRows, doubling up to srcBatchRows, so the
// converter starts after the first rampFirstRows rows and the two stages
// overlap on two cores: a 1,000-row load is batches of 128, 256, 512 and
// 104 rows. Large loads reach full batches after three hand-overs.

// rampFirstRows is the size of a load's first batch.
const rampFirstRows = 128

// batchRows is how many rows the n-th batch (from 0) of a load holds at
// most.
func batchRows(n int) int {
	if n >= 4 {
		return srcBatchRows
	}
	return min(srcBatchRows, rampFirstRows<<n)
}
