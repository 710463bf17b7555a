package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestBlockCacheSize checks --block-cache-size in Doris's forms
// (storage_page_cache_limit): a percentage of memory, one-letter binary
// units, bytes, with loadgw's other size forms, and the bounds.
func TestBlockCacheSize(t *testing.T) {
	const mem = 16 << 30
	for _, c := range []struct {
		spec string
		want int64
	}{
		{"20%", mem / 5},
		{"50%", mem / 2},
		{"2.5%", mem / 40},
		{"4g", 4 << 30},
		{"4G", 4 << 30},
		{"1.5g", 3 << 29},
		{"512m", 512 << 20},
		{"65536k", 64 << 20},
		{"1t", 8 << 30}, // above half the memory: halved until it is not, as Doris does
		{"12g", 6 << 30},
		{"536870912", 512 << 20},
		{"96MiB", 96 << 20},
		{" 8m ", 8 << 20},
	} {
		got, err := blockCacheBytes(c.spec, mem)
		if err != nil || got != c.want {
			t.Errorf("blockCacheBytes(%q) = %d, %v; want %d", c.spec, got, err, c.want)
		}
	}
	// A percentage of a small memory gives the floor.
	if got, err := blockCacheBytes("1%", 1<<30); err != nil || got != 64<<20 {
		t.Errorf("1%% of 1 GiB = %d, %v; want the 64 MiB floor", got, err)
	}
	if got, err := blockCacheBytes("20%", 128<<20); err != nil || got != 32<<20 {
		t.Errorf("20%% of 128 MiB = %d, %v; want a quarter, 32 MiB", got, err)
	}
	for _, c := range []struct{ spec, want string }{
		{"", "--block-cache-size is empty"},
		{"lots", `"lots" is not a size`},
		{"0%", `"0%" is not a percentage of memory between 0 and 100`},
		{"150%", `"150%" is not a percentage of memory between 0 and 100`},
		{"x%", `"x%" is not a percentage`},
		{"-1g", `"-1g" is out of range`},
		{"0", `"0" must be positive`},
		{"1m", `--block-cache-size "1m" is 1048576 bytes on this machine (16 GiB of memory): at least 8MiB`},
		{"99999999t", `"99999999t" is out of range`},
	} {
		_, err := blockCacheBytes(c.spec, mem)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("blockCacheBytes(%q) = %v, want an error with %q", c.spec, err, c.want)
		}
	}
}

// TestBlockCacheFlag checks the flag's default (Doris's "20%"), that a bad
// value fails when the flags are parsed, and that --help shows it.
func TestBlockCacheFlag(t *testing.T) {
	t.Setenv("LOADGW_BLOCK_CACHE_SIZE", "")
	var out bytes.Buffer
	fsOut = &out
	defer func() { fsOut = nil }()
	c, err := parseFlags(nil)
	if err == nil || !strings.Contains(err.Error(), "--block-cache-size is empty") {
		t.Errorf("an empty LOADGW_BLOCK_CACHE_SIZE: %v", err)
	}
	t.Setenv("LOADGW_BLOCK_CACHE_SIZE", "2g")
	if c, err = parseFlags(nil); err != nil || c.blockCache != "2g" {
		t.Errorf("LOADGW_BLOCK_CACHE_SIZE=2g: %q, %v", c.blockCache, err)
	}
	if c, err = parseFlags([]string{"--block-cache-size", "512m"}); err != nil || c.blockCache != "512m" {
		t.Errorf("--block-cache-size 512m: %q, %v", c.blockCache, err)
	}
	if _, err = parseFlags([]string{"--block-cache-size", "3x"}); err == nil || !strings.Contains(err.Error(), `"3x" is not a size`) {
		t.Errorf("--block-cache-size 3x: %v", err)
	}
	if _, err = parseFlags([]string{"--block-cache-size", "1k"}); err == nil || !strings.Contains(err.Error(), "at least 8MiB") {
		t.Errorf("--block-cache-size 1k: %v", err)
	}
	os.Unsetenv("LOADGW_BLOCK_CACHE_SIZE") // restored by t.Setenv's cleanup
	out.Reset()
	if _, err := parseFlags([]string{"--help"}); err == nil {
		t.Fatal("--help did not stop")
	}
	if !strings.Contains(out.String(), "(default 20%)") {
		t.Errorf("--help does not show the default 20%%:\n%s", out.String())
	}
}

// TestPhysicalMemory checks that the machine's memory is read (on Linux)
// and that the default cache is a fifth of it.
func TestPhysicalMemory(t *testing.T) {
	m := physicalMemory()
	if m < 64<<20 {
		t.Fatalf("physical memory %d bytes", m)
	}
	got, err := blockCacheBytes(defaultBlockCache, m)
	if err != nil {
		t.Fatal(err)
	}
	if want := max(m/5, min(64<<20, m/4)); got != want {
		t.Errorf("default cache %d bytes of %d, want %d", got, m, want)
	}
}
