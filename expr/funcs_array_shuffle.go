package expr

import (
	"math/rand/v2"

	"loadgw/types"
)

// array_shuffle(arr [, seed]) (alias shuffle): the elements in a random
// order. Doris's FunctionArrayShuffle seeds a std::mt19937 with the seed
// (or the time) and permutes each array with libstdc++'s std::shuffle;
// loadgw does the same with the same generator and the same shuffle, so a
// seeded call gives Doris's order (regression-test/data/query_p0/
// sql_functions/size_funciton/test_size_function.out pins seed 0). Doris
// seeds once per block and shuffles the block's rows in turn; loadgw seeds
// each row, so a seeded column matches Doris's first row only. A seed
// outside [0, 2^32) is Doris's cast_set error.

func init() {
	register(&funcDef{min: 1, max: 2, bind: bindArrayShuffle}, "array_shuffle", "shuffle")
}

func bindArrayShuffle(name string, args []Compiled) (Compiled, error) {
	if _, null, err := arrayOperand(name, args); null != nil || err != nil {
		return null, err
	}
	if len(args) == 2 {
		args[1] = convertArg(args[1], aInt)
	}
	fn := func(_ *Context, v []types.Value) (types.Value, error) {
		if v[0].IsNull() || len(v) == 2 && v[1].IsNull() {
			return types.NullValue, nil
		}
		var seed uint32
		if len(v) == 2 {
			if s := uint64(v[1].I); s > 0xFFFFFFFF {
				return types.NullValue, errorf("[INTERNAL_ERROR]value %d cast  to type j out of range [0,4294967295]", s)
			}
			seed = uint32(v[1].I)
		} else {
			seed = rand.Uint32()
		}
		n, err := types.Decode(v[0])
		if err != nil {
			return types.NullValue, err
		}
		g := newMT19937(seed)
		stdShuffle(n.Elems, g)
		return n.Encode(), nil
	}
	return &funcNode{name: name, args: args, t: args[0].Type(), fn: fn, seesNull: true, volatile: len(args) == 1}, nil
}

// mt19937 is the 32-bit Mersenne Twister of C++'s std::mt19937
// (Matsumoto and Nishimura, 1998).
type mt19937 struct {
	s [624]uint32
	i int
}

func newMT19937(seed uint32) *mt19937 {
	g := &mt19937{i: 624}
	g.s[0] = seed
	for i := 1; i < 624; i++ {
		g.s[i] = 1812433253*(g.s[i-1]^(g.s[i-1]>>30)) + uint32(i)
	}
	return g
}

func (g *mt19937) next() uint32 {
	if g.i >= 624 {
		for k := 0; k < 624; k++ {
			y := g.s[k]&0x80000000 | g.s[(k+1)%624]&0x7fffffff
			x := g.s[(k+397)%624] ^ y>>1
			if y&1 != 0 {
				x ^= 0x9908b0df
			}
			g.s[k] = x
		}
		g.i = 0
	}
	y := g.s[g.i]
	g.i++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	return y ^ y>>18
}

// uniform is libstdc++'s uniform_int_distribution over [0, n) for a
// 32-bit generator: Lemire's multiply-and-shift with rejection.
func (g *mt19937) uniform(n uint32) uint32 {
	p := uint64(g.next()) * uint64(n)
	if low := uint32(p); low < n {
		threshold := -n % n
		for low < threshold {
			p = uint64(g.next()) * uint64(n)
			low = uint32(p)
		}
	}
	return uint32(p >> 32)
}

// stdShuffle is libstdc++'s std::shuffle: when the generator's range
// covers n*n it draws two swap positions from one number, after a first
// single swap when n is even; otherwise one draw a position.
func stdShuffle(e []types.Value, g *mt19937) {
	n := uint64(len(e))
	if n == 0 {
		return
	}
	if uint64(0xFFFFFFFF)/n >= n {
		i := uint64(1)
		if n%2 == 0 {
			j := g.uniform(2)
			e[i], e[j] = e[j], e[i]
			i++
		}
		for i != n {
			r := i + 1
			x := uint64(g.uniform(uint32(r * (r + 1))))
			a, b := x/(r+1), x%(r+1)
			e[i], e[a] = e[a], e[i]
			i++
			e[i], e[b] = e[b], e[i]
			i++
		}
		return
	}
	for i := uint64(1); i < n; i++ {
		j := g.uniform(uint32(i + 1))
		e[i], e[j] = e[j], e[i]
	}
}
