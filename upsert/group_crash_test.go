package upsert_test

import (
	"math/rand/v2"
	"sort"
	"sync"
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// TestGroupCrash commits small loads from several goroutines into a synced
// store on a crashable file system and takes crash images of it at random
// moments (keeping only the synced data, or some of the unsynced data too).
// Reopened, every image must show: each load whole or not at all; every load
// acknowledged before the image; the loads of one group write all or none;
// and the loads present a prefix of the commits in TSO order.
func TestGroupCrash(t *testing.T) {
	const workers, loadsPer, rows, images = 8, 40, 5, 12
	f := storage.NewFaults()
	s := openFaultyStore(t, f)
	w := s.w
	tbl := s.newTable("t", catalog.DupKeys, 1, nil, column("k", typ(types.BigInt)), column("lid", typ(types.BigInt)))
	rc := catalog.NewRowCodec(tbl)

	var mu sync.Mutex
	var groups [][2]uint64      // TSO ranges of the group writes
	tsoOf := map[int64]uint64{} // load id -> TSO, once acknowledged
	defer upsert.SetWriteHook(func(first, last uint64) {
		mu.Lock()
		groups = append(groups, [2]uint64{first, last})
		mu.Unlock()
		time.Sleep(300 * time.Microsecond) // an fsync's time, so commits meet
	})()

	type image struct {
		fs    *storage.Faults
		acked map[int64]bool
	}
	var imgs []image
	done := make(chan struct{})
	var wg sync.WaitGroup
	for wk := 0; wk < workers; wk++ {
		wg.Add(1)
		go func(wk int) {
			defer wg.Done()
			for i := 0; i < loadsPer; i++ {
				lid := int64(wk*loadsPer + i + 1)
				var set [][]types.Value
				for r := 0; r < rows; r++ {
					set = append(set, []types.Value{types.NewInt(types.BigInt, lid*100+int64(r)), types.NewInt(types.BigInt, lid)})
				}
				res, err := w.Commit(upsert.Rows{Codec: rc, Rows: set})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				tsoOf[lid] = res.TSO
				mu.Unlock()
			}
		}(wk)
	}
	go func() { wg.Wait(); close(done) }()
	rng := rand.New(rand.NewPCG(1, 2))
	for len(imgs) < images {
		select {
		case <-done:
		case <-time.After(time.Duration(rng.IntN(8000)) * time.Microsecond):
		}
		mu.Lock()
		acked := map[int64]bool{}
		for lid := range tsoOf {
			acked[lid] = true
		}
		mu.Unlock()
		var fs *storage.Faults
		if len(imgs)%2 == 0 {
			fs = f.Crash()
		} else {
			fs = f.CrashSome(rng, 50)
		}
		imgs = append(imgs, image{fs: fs, acked: acked})
	}
	<-done
	s.db.Close()

	// The loads in TSO order, and the group of each TSO.
	var order []int64
	for lid := range tsoOf {
		order = append(order, lid)
	}
	sort.Slice(order, func(i, j int) bool { return tsoOf[order[i]] < tsoOf[order[j]] })
	groupOf := func(ts uint64) int {
		for i, g := range groups {
			if g[0] <= ts && ts <= g[1] {
				return i
			}
		}
		t.Fatalf("TSO %d in no group", ts)
		return -1
	}
	grouped := 0
	for _, g := range groups {
		if g[0] != g[1] {
			grouped++
		}
	}
	for n, img := range imgs {
		cdb, err := storage.Open("/data", storage.Options{FS: img.fs.FS(), OnFatal: img.fs.OnFatal, CacheBytes: 1 << 20, MinFreeDiskBytes: -1})
		if err != nil {
			t.Fatalf("image %d: %v", n, err)
		}
		cs := &testStore{db: cdb}
		got, err := cs.rows(tbl, "lid")
		cdb.Close()
		if err != nil {
			t.Fatalf("image %d: %v", n, err)
		}
		count := map[int64]int{}
		for _, r := range got {
			var lid int64
			for _, c := range r {
				lid = lid*10 + int64(c-'0')
			}
			count[lid]++
		}
		present := map[int]int{} // group -> loads present
		for i, lid := range order {
			c := count[lid]
			if c != 0 && c != rows {
				t.Fatalf("image %d: load %d has %d of its %d rows", n, lid, c, rows)
			}
			if img.acked[lid] && c == 0 {
				t.Fatalf("image %d: acknowledged load %d is missing", n, lid)
			}
			if c > 0 && i > 0 && count[order[i-1]] == 0 {
				t.Fatalf("image %d: load %d (TSO %d) is present but the load before it (TSO %d) is not", n, lid, tsoOf[lid], tsoOf[order[i-1]])
			}
			if c > 0 {
				present[groupOf(tsoOf[lid])]++
			}
		}
		for g, k := range present {
			members := 0
			for _, lid := range order {
				if groupOf(tsoOf[lid]) == g {
					members++
				}
			}
			if k != members {
				t.Fatalf("image %d: %d of the %d loads of group %v are present", n, k, members, groups[g])
			}
		}
		t.Logf("image %d: %d of %d loads present, %d acknowledged before it", n, len(count), len(order), len(img.acked))
	}
	if grouped == 0 {
		t.Errorf("no group held more than one commit (%d groups)", len(groups))
	}
	t.Logf("%d loads in %d group writes, %d of them shared", len(order), len(groups), grouped)
}
