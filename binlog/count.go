package binlog

// Records is how many change records r has written (0 for a nil r).
func (r *Recorder) Records() int64 {
	if r == nil {
		return 0
	}
	return int64(r.lsn)
}
