package upsert

import "fmt"

// checkSpace refuses a write of about n bytes of rows when the disk is
// (nearly) full (see storage.DB.CheckFreeSpace): the load fails and the
// store keeps room for the writes that end transactions.
func (w *Writer) checkSpace(n int64) error {
	if err := w.db.CheckFreeSpace(n); err != nil {
		return fmt.Errorf("cannot write rows: %w", err)
	}
	return nil
}
