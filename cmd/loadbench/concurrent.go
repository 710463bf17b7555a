package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"loadgw/storage"
)

// concurrentOpts is the concurrent small-load workload: clients send loads
// of rows rows each, each load its own transaction with its own label, for
// dur (after warm loads per client).
type concurrentOpts struct {
	clients  int
	rows     int
	dur      time.Duration
	warm     int
	keyspace int // keys are drawn from [0, keyspace); 0 means clients*rows*10
	format   string
	groupHdr string // the group_commit header, or ""
	random   bool   // keys drawn at random, not consecutive
}

// runConcurrent runs the workload against the table and prints loads/s,
// rows/s and the latency distribution.
func runConcurrent(addr, table string, o concurrentOpts) error {
	if o.keyspace <= 0 {
		o.keyspace = o.clients * o.rows * 10
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.clients, MaxConnsPerHost: o.clients}}
	var seq atomic.Int64
	one := func() (time.Duration, error) {
		n := seq.Add(1) - 1
		body := loadBody(o, n)
		req, _ := http.NewRequest("PUT", "http://"+addr+"/api/bench/"+table+"/_stream_load", bytes.NewReader(body))
		req.SetBasicAuth("root", "")
		req.Header.Set("format", o.format)
		if o.format == "json" {
			req.Header.Set("read_json_by_line", "true")
		} else {
			req.Header.Set("column_separator", ",")
		}
		if o.groupHdr != "" {
			req.Header.Set("group_commit", o.groupHdr)
		}
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		out, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		took := time.Since(start)
		if err != nil {
			return 0, err
		}
		if !strings.Contains(string(out), `"Status": "Success"`) || !strings.Contains(string(out), `"NumberLoadedRows": `+strconv.Itoa(o.rows)) {
			return 0, fmt.Errorf("load failed: %s", out)
		}
		return took, nil
	}
	// Warm-up: connections, the first memtable, the keys of MoW tables.
	if err := fanOut(o.clients, func(int) error {
		for i := 0; i < o.warm; i++ {
			if _, err := one(); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	stopProfile, err := startProfile()
	if err != nil {
		return err
	}
	defer stopProfile()
	lat := make([][]time.Duration, o.clients)
	cpu0 := cpuTime()
	groups0, fsync0 := groupsWritten(), walFsync()
	flushed0, compacted0 := tableBytes()
	start := time.Now()
	deadline := start.Add(o.dur)
	err = fanOut(o.clients, func(c int) error {
		for time.Now().Before(deadline) {
			d, err := one()
			if err != nil {
				return err
			}
			lat[c] = append(lat[c], d)
		}
		return nil
	})
	took := time.Since(start)
	cpu := cpuTime() - cpu0
	groups, fsync1 := groupsWritten()-groups0, walFsync()
	syncs := int64(fsync1.Count - fsync0.Count)
	flushed, compacted := tableBytes()
	flushed, compacted = flushed-flushed0, compacted-compacted0
	if err != nil {
		return err
	}
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	pct := func(p float64) time.Duration { return all[min(len(all)-1, int(float64(len(all))*p))] }
	fmt.Printf("concurrent small loads: %d clients x %d-row %s loads, %d loads in %v\n", o.clients, o.rows, o.format, len(all), took.Round(time.Millisecond))
	fmt.Printf("  %8.0f loads/s %10.0f rows/s  p50 %v  p99 %v  max %v\n",
		float64(len(all))/took.Seconds(), float64(len(all)*o.rows)/took.Seconds(),
		pct(0.5).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond), all[len(all)-1].Round(10*time.Microsecond))
	fmt.Printf("  CPU (user+system, client and server) per load: %v, %.2f cores busy\n",
		(cpu / time.Duration(len(all))).Round(10*time.Microsecond), cpu.Seconds()/took.Seconds())
	if inProcess != nil {
		fmt.Printf("  %d group writes (one batch each) and %d WAL fsyncs for %d loads: %.1f loads per group, %.1f per fsync\n",
			groups, syncs, len(all), float64(len(all))/float64(max(groups, 1)), float64(len(all))/float64(max(syncs, 1)))
		if syncs > 0 {
			q := func(p float64) time.Duration { return fsyncQuantile(fsync0, fsync1, p) }
			fmt.Printf("  WAL fsync mean %v, p50 %v, p99 %v (bucket bounds)\n",
				time.Duration((fsync1.Sum-fsync0.Sum)/float64(syncs)*1e9).Round(time.Microsecond), q(0.5), q(0.99))
		}
		fmt.Printf("  table bytes per load: %.0f KB flushed, %.0f KB compacted\n",
			float64(flushed)/1e3/float64(len(all)), float64(compacted)/1e3/float64(len(all)))
	}
	fmt.Printf("peak RSS of this process (VmHWM):  %s\n", peakRSS())
	return nil
}

// groupsWritten is the in-process server's group writes so far, or 0.
func groupsWritten() int64 {
	if inProcess == nil {
		return 0
	}
	return inProcess.Writer().GroupsWritten()
}

// walFsync is the in-process server's WAL fsync latency histogram so far:
// its count is the fsyncs. Empty before the first fsync and without an
// in-process server.
func walFsync() *storage.Latency {
	if inProcess != nil {
		if l := inProcess.Store().WALFsync(); l != nil {
			return l
		}
	}
	return &storage.Latency{Buckets: map[float64]uint64{}}
}

// fsyncQuantile is the upper bound of the histogram bucket holding the
// p-quantile of the fsyncs between snapshots a and b of one histogram.
func fsyncQuantile(a, b *storage.Latency, p float64) time.Duration {
	bounds := make([]float64, 0, len(b.Buckets))
	for ub := range b.Buckets {
		bounds = append(bounds, ub)
	}
	slices.Sort(bounds)
	want := p * float64(b.Count-a.Count)
	for _, ub := range bounds {
		if float64(b.Buckets[ub]-a.Buckets[ub]) >= want {
			return time.Duration(ub * 1e9).Round(time.Microsecond)
		}
	}
	return 0
}

// tableBytes is the table bytes the in-process server's store flushed and
// compacted so far, or zeros.
func tableBytes() (flushed, compacted uint64) {
	if inProcess == nil {
		return 0, 0
	}
	s := inProcess.Store().Stats()
	return s.FlushedBytes, s.CompactedBytes
}

// cpuTime is the user and system CPU time of this process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadBody is the body of the n-th load: rows rows whose keys continue
// where the previous load stopped, wrapping around the key space, so
// concurrent loads of a MoW table update keys other loads wrote.
func loadBody(o concurrentOpts, n int64) []byte {
	var b []byte
	first := int(n) * o.rows
	for i := 0; i < o.rows; i++ {
		k := (first + i) % o.keyspace
		if o.random {
			k = int(mix(uint64(first+i)) % uint64(o.keyspace))
		}
		b = row(b, o.format, k)
		b = append(b, '\n')
	}
	return b
}

// fanOut runs fn(0..n-1) on n goroutines and returns the first error.
func fanOut(n int, fn func(int) error) error {
	var wg sync.WaitGroup
	errs := make([]error, n)
	for c := 0; c < n; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			errs[c] = fn(c)
		}(c)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// mix is splitmix64's finalizer: a key drawn at random, the same one for
// the same x in every run.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
