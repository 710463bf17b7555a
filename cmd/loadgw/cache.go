package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/prometheus/procfs"
)

// The block cache. Pebble's block cache holds decompressed table blocks,
// as Doris's storage page cache holds decoded pages; it is sized as Doris
// sizes that cache (be.conf storage_page_cache_limit, default "20%"): a
// percentage of the machine's memory or a size. A repeated scan of a table
// that fits is then read without decompressing a block.

const (
	// defaultBlockCache is Doris's storage_page_cache_limit default.
	defaultBlockCache = "20%"
	// minBlockCache is the smallest block cache: a smaller one is
	// refused (Doris disables its cache below a few bytes per shard; a
	// tiny Pebble cache thrashes on its index and filter blocks).
	minBlockCache = 8 << 20
	// percentFloor is the least a percentage gives (a quarter of the
	// memory at most): 20% of a small container is not a usable cache.
	percentFloor = 64 << 20
	// fallbackMemory is the memory assumed when the machine's cannot be
	// read (not Linux): the default then gives a 128 MiB cache, the size
	// loadgw always used before.
	fallbackMemory = 640 << 20
)

// blockCache is the --block-cache-size flag: its text as given, resolved
// against the machine's memory by bytes.
type blockCache struct{ p *string }

func (b blockCache) String() string {
	if b.p == nil {
		return ""
	}
	return *b.p
}

func (b blockCache) Set(s string) error {
	if _, err := parseMemSpec(s, 1<<40); err != nil {
		return err
	}
	*b.p = strings.TrimSpace(s)
	return nil
}

// blockCacheBytes resolves spec against memory (the machine's physical
// memory, see physicalMemory): a percentage of it (at least percentFloor
// or a quarter of the memory), or a size. As Doris does with
// storage_page_cache_limit, a size above half the memory is halved until
// it is not.
func blockCacheBytes(spec string, memory int64) (int64, error) {
	n, err := parseMemSpec(spec, memory)
	if err != nil {
		return 0, err
	}
	if strings.HasSuffix(strings.TrimSpace(spec), "%") {
		n = max(n, min(percentFloor, memory/4))
	} else {
		for n > memory/2 && n > minBlockCache {
			n /= 2
		}
	}
	if n < minBlockCache {
		return 0, fmt.Errorf("--block-cache-size %q is %d bytes on this machine (%s of memory): at least %s", spec, n, humanize.IBytes(uint64(memory)), formatBytes(minBlockCache))
	}
	return n, nil
}

// parseMemSpec reads a memory size the way Doris reads its be.conf sizes
// (ParseUtil::parse_mem_spec): "20%" of memory; a number with a one-letter
// binary unit k, m, g or t (either case, a fraction allowed: "1.5g");
// digits alone are bytes. loadgw's other size forms (96MiB, 1GB) are also
// taken.
func parseMemSpec(s string, memory int64) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("--block-cache-size is empty: a size (4g, 512MiB) or a percentage of memory (20%%)")
	}
	if num, ok := strings.CutSuffix(s, "%"); ok {
		f, err := strconv.ParseFloat(num, 64)
		if err != nil || f <= 0 || f > 100 {
			return 0, fmt.Errorf("--block-cache-size %q is not a percentage of memory between 0 and 100", s)
		}
		return int64(f / 100 * float64(memory)), nil
	}
	units := map[byte]float64{'k': 1 << 10, 'm': 1 << 20, 'g': 1 << 30, 't': 1 << 40}
	if mult, ok := units[s[len(s)-1]|0x20]; ok {
		f, err := strconv.ParseFloat(s[:len(s)-1], 64)
		if err == nil {
			if f <= 0 || f*mult > 1<<50 {
				return 0, fmt.Errorf("--block-cache-size %q is out of range", s)
			}
			return int64(f * mult), nil
		}
	}
	n, err := parseBytes(s)
	if err != nil {
		return 0, fmt.Errorf("--block-cache-size: %w", err)
	}
	if n <= 0 {
		return 0, fmt.Errorf("--block-cache-size %q must be positive", s)
	}
	return n, nil
}

// physicalMemory is the memory of the machine, or of the cgroup the
// process runs in when that is smaller (as Doris's MemInfo takes it);
// fallbackMemory when neither can be read.
func physicalMemory() int64 {
	total := memTotal()
	if total <= 0 {
		total = fallbackMemory
	}
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(f); err == nil {
			if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && n < total {
				total = n
			}
		}
	}
	return total
}

// memTotal is MemTotal of /proc/meminfo in bytes, 0 when unknown.
func memTotal() int64 {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return 0
	}
	mi, err := fs.Meminfo()
	if err != nil || mi.MemTotalBytes == nil || *mi.MemTotalBytes > 1<<62 {
		return 0
	}
	return int64(*mi.MemTotalBytes)
}
