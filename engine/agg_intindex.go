package engine

// intIndex finds the group of an integer GROUP BY key. It starts as a map;
// once the keys are dense enough (their range at most denseFactor times
// the number of groups, as ids are: Q18's 1.5M order keys within 6M), it
// moves to a slice indexed by key: one memory access per row instead of a
// map probe that misses the cache on every row.
type intIndex struct {
	m map[int64]int32
	// dense, when set, replaces m: the group of key base+i is dense[i]-1
	// (0: none).
	dense []int32
	base  int64
	// lo and hi are the smallest and largest key indexed, n their number.
	lo, hi int64
	n      int
	// check is the number of keys at which a map is next considered for
	// moving to dense.
	check int
}

const (
	// denseFactor bounds the key range of a dense index against its
	// number of keys.
	denseFactor = 16
	// denseMinCheck is the number of keys from which a map may move.
	denseMinCheck = 4096
	// maxDenseKeys bounds a dense index (4 bytes per key of the range).
	maxDenseKeys = 1 << 26
)

func newIntIndex() intIndex {
	return intIndex{m: map[int64]int32{}, check: denseMinCheck}
}

// find returns the group of key k, or -1.
func (x *intIndex) find(k int64) int32 {
	if x.dense != nil {
		if d := uint64(k - x.base); k >= x.base && d < uint64(len(x.dense)) {
			return x.dense[d] - 1
		}
		return -1
	}
	if g, ok := x.m[k]; ok {
		return g
	}
	return -1
}

// sparse reports whether the keys' range is too wide for a dense index.
func (x *intIndex) sparse() bool {
	span := uint64(x.hi - x.lo)
	return span >= uint64(denseFactor*x.n) || span >= maxDenseKeys
}

// insert indexes group g under key k (not yet indexed); it returns the
// change in the index's estimated bytes.
func (x *intIndex) insert(k int64, g int32) int64 {
	if x.n == 0 {
		x.lo, x.hi = k, k
	}
	x.lo, x.hi = min(x.lo, k), max(x.hi, k)
	x.n++
	if x.dense != nil {
		return x.insertDense(k, g)
	}
	x.m[k] = g
	if x.n < x.check {
		return intKeyBytes
	}
	x.check += x.check / 2
	if x.sparse() {
		return intKeyBytes
	}
	before := int64(len(x.m)) * intKeyBytes
	x.dense, x.base = make([]int32, x.hi-x.lo+1), x.lo
	for k, g := range x.m {
		x.dense[k-x.base] = g + 1
	}
	x.m = nil
	return intKeyBytes - before + 4*int64(len(x.dense))
}

// insertDense indexes k in the dense slice, growing it, or moving back to
// a map when the keys have become too sparse.
func (x *intIndex) insertDense(k int64, g int32) int64 {
	if d := k - x.base; d >= 0 && d < int64(len(x.dense)) {
		x.dense[d] = g + 1
		return 0
	}
	old := int64(len(x.dense)) * 4
	if x.sparse() {
		x.m = make(map[int64]int32, x.n)
		for i, e := range x.dense {
			if e != 0 {
				x.m[x.base+int64(i)] = e - 1
			}
		}
		x.m[k] = g
		x.dense, x.check = nil, 2*x.n
		return int64(len(x.m))*intKeyBytes - old
	}
	// The grown slice holds the old one and k, with a quarter more room
	// beyond k (doubling would add up to 4 bytes per key of the range to
	// an index whose keys are nearly all in).
	n, base := min(len(x.dense)+len(x.dense)/4, maxDenseKeys), x.base
	if top := x.base + int64(len(x.dense)) - 1; k < x.base {
		n = max(n, int(top-k)+1)
		base = top - int64(n) + 1
	} else {
		n = max(n, int(k-x.base)+1)
	}
	grown := make([]int32, n)
	copy(grown[x.base-base:], x.dense)
	x.dense, x.base = grown, base
	x.dense[k-base] = g + 1
	return int64(n)*4 - old
}
