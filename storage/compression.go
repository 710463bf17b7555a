package storage

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2/sstable/block"
)

// Compressions are the values of Options.Compression.
var Compressions = []string{"snappy", "none"}

// compressionProfile is Pebble's block compression for Options.Compression.
func compressionProfile(name string) (*block.CompressionProfile, error) {
	switch name {
	case "snappy":
		return block.SnappyCompression, nil
	case "none":
		return block.NoCompression, nil
	}
	return nil, fmt.Errorf("cannot open store: unknown compression %q (snappy or none)", name)
}
