package storage

// CountKeys counts the keys in [lower, upper), stopping at limit (limit <=
// 0: no limit). It reads every key of the range, so its cost is that of
// the range up to limit.
func (db *DB) CountKeys(lower, upper []byte, limit int) (int, error) {
	it, err := db.NewIter(lower, upper)
	if err != nil {
		return 0, err
	}
	n := 0
	for ok := it.First(); ok && (limit <= 0 || n < limit); ok = it.Next() {
		n++
	}
	return n, it.Close()
}
