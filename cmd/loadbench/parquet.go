package main

import (
	"bytes"
	"time"

	"github.com/parquet-go/parquet-go"
)

// parquetRow is the generated row as a Parquet record: the same values as
// the CSV and JSON rows (ts is a TIMESTAMP not adjusted to UTC, so it loads
// as the same wall time).
type parquetRow struct {
	K  int64     `parquet:"k"`
	V1 int32     `parquet:"v1"`
	V2 string    `parquet:"v2"`
	TS time.Time `parquet:"ts,timestamp(microsecond:local)"`
}

// parquetBody writes n generated rows as one Parquet file, in parquet-go's
// default row groups and Snappy pages.
func parquetBody(n int) []byte {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[parquetRow](&buf, parquet.Compression(&parquet.Snappy))
	ts := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	batch := make([]parquetRow, 0, 4096)
	for i := 0; i < n; i++ {
		batch = append(batch, parquetRow{K: keyBase + int64(i), V1: int32(i * 7919 % 1000000), V2: "some text of 20 chs", TS: ts})
		if len(batch) == cap(batch) || i == n-1 {
			if _, err := w.Write(batch); err != nil {
				panic(err)
			}
			batch = batch[:0]
		}
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}
