package tpch

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"
)

// Options configure a Generator.
type Options struct {
	// ScaleFactor is TPC-H's SF: 1 makes 6M lineitem rows (about 1 GB of
	// files). It must be at least MinScaleFactor. The default value is 1.
	ScaleFactor float64
	// Seed selects the data; the same seed and scale factor give the same
	// bytes. The default value is 0.
	Seed uint64
}

// MinScaleFactor is the smallest scale factor whose partsupp keys are
// unique under the specification's PS_SUPPKEY formula.
const MinScaleFactor = 0.01

// Generator writes the TPC-H tables. It is safe for concurrent use: each
// table draws from its own random stream.
type Generator struct {
	sf       float64
	seed     uint64
	supp     int64 // SF * 10,000
	cust     int64 // SF * 150,000
	parts    int64 // SF * 200,000
	orders   int64 // SF * 1,500,000
	clerks   int64 // SF * 1,000
	poolOnce sync.Once
	pool     []byte
}

// New returns a generator for opts.
func New(opts Options) (*Generator, error) {
	if opts.ScaleFactor == 0 {
		opts.ScaleFactor = 1
	}
	if !(opts.ScaleFactor >= MinScaleFactor) || opts.ScaleFactor > 1000 {
		return nil, fmt.Errorf("cannot generate scale factor %v: it must be between %v and 1000", opts.ScaleFactor, MinScaleFactor)
	}
	scaled := func(n float64) int64 { return max(1, int64(math.Round(n*opts.ScaleFactor))) }
	g := &Generator{
		sf: opts.ScaleFactor, seed: opts.Seed,
		supp: scaled(10_000), cust: scaled(150_000), parts: scaled(200_000),
		orders: scaled(1_500_000), clerks: scaled(1_000),
	}
	if err := g.checkPartsupp(); err != nil {
		return nil, err
	}
	return g, nil
}

// checkPartsupp verifies that the four suppliers of every part differ.
func (g *Generator) checkPartsupp() error {
	for step := g.supp / 4; step <= g.supp/4+(g.parts-1)/g.supp; step++ {
		for d := int64(1); d < 4; d++ {
			if d*step%g.supp == 0 {
				return fmt.Errorf("cannot generate scale factor %v: parts would have the same supplier twice", g.sf)
			}
		}
	}
	return nil
}

// Rows returns the number of rows table will have; for lineitem, whose
// count is random (1 to 7 per order), it returns -1.
func (g *Generator) Rows(table string) int64 {
	switch table {
	case "region":
		return int64(len(regions))
	case "nation":
		return int64(len(nations))
	case "supplier":
		return g.supp
	case "customer":
		return g.cust
	case "part":
		return g.parts
	case "partsupp":
		return 4 * g.parts
	case "orders":
		return g.orders
	}
	return -1
}

// Write writes table's rows to w in dbgen's format.
func (g *Generator) Write(table string, w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	t := &tableWriter{g: g, w: bw, r: g.rand(table)}
	var err error
	switch table {
	case "region":
		err = t.region()
	case "nation":
		err = t.nation()
	case "supplier":
		err = t.supplier()
	case "customer":
		err = t.customer()
	case "part":
		err = t.part()
	case "partsupp":
		err = t.partsupp()
	case "orders", "lineitem":
		err = t.ordersAndLines(table == "orders")
	default:
		return fmt.Errorf("cannot find TPC-H table %q", table)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return fmt.Errorf("cannot write table %s: %w", table, err)
	}
	return nil
}

// rand is table's own random stream. orders and lineitem share one: both
// files come from the same orders.
func (g *Generator) rand(table string) *rand.Rand {
	id := uint64(0)
	if table == "lineitem" {
		table = "orders"
	}
	for _, c := range []byte(table) {
		id = id*131 + uint64(c)
	}
	return rand.New(rand.NewPCG(g.seed, id))
}

func (g *Generator) textPool() []byte {
	g.poolOnce.Do(func() { g.pool = textPool(rand.New(rand.NewPCG(g.seed, 0x7e47))) })
	return g.pool
}

// tableWriter writes one table: one row buffer, one random stream.
type tableWriter struct {
	g   *Generator
	w   *bufio.Writer
	r   *rand.Rand
	row []byte
}

// uniform draws an integer in [lo, hi].
func (t *tableWriter) uniform(lo, hi int64) int64 { return lo + t.r.Int64N(hi-lo+1) }

// text appends a random text string of length in [lo, hi] cut from the pool.
func (t *tableWriter) text(lo, hi int) {
	pool := t.g.textPool()
	n := int(t.uniform(int64(lo), int64(hi)))
	off := t.r.IntN(len(pool) - n)
	t.row = append(t.row, pool[off:off+n]...)
}

// vstring appends a random string of length in [lo, hi] over dbgen's
// alphanumeric set (addresses).
func (t *tableWriter) vstring(lo, hi int) {
	const chars = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ,. "
	n := int(t.uniform(int64(lo), int64(hi)))
	for range n {
		t.row = append(t.row, chars[t.r.IntN(len(chars))])
	}
}

func (t *tableWriter) str(s string) { t.row = append(append(t.row, s...), '|') }
func (t *tableWriter) int(v int64)  { t.row = append(strconv.AppendInt(t.row, v, 10), '|') }
func (t *tableWriter) sep()         { t.row = append(t.row, '|') }

// money appends cents as a decimal with two places.
func (t *tableWriter) money(cents int64) {
	if cents < 0 {
		t.row = append(t.row, '-')
		cents = -cents
	}
	t.row = strconv.AppendInt(t.row, cents/100, 10)
	t.row = append(t.row, '.', byte('0'+cents%100/10), byte('0'+cents%10), '|')
}

// keyName appends prefix and the key in nine digits ("Supplier#000000001").
func (t *tableWriter) keyName(prefix string, key int64) {
	t.row = append(t.row, prefix...)
	s := strconv.FormatInt(key, 10)
	for i := len(s); i < 9; i++ {
		t.row = append(t.row, '0')
	}
	t.str(s)
}

// phone appends a phone number whose country code is nation + 10.
func (t *tableWriter) phone(nation int64) {
	t.row = strconv.AppendInt(t.row, nation+10, 10)
	t.row = append(t.row, '-')
	t.row = strconv.AppendInt(t.row, t.uniform(100, 999), 10)
	t.row = append(t.row, '-')
	t.row = strconv.AppendInt(t.row, t.uniform(100, 999), 10)
	t.row = append(t.row, '-')
	t.row = strconv.AppendInt(t.row, t.uniform(1000, 9999), 10)
	t.sep()
}

// end finishes the row and hands it to the writer.
func (t *tableWriter) end() error {
	t.row = append(t.row, '\n')
	_, err := t.w.Write(t.row)
	t.row = t.row[:0]
	return err
}

func (t *tableWriter) region() error {
	for k, name := range regions {
		t.int(int64(k))
		t.str(name)
		t.text(31, 115)
		t.sep()
		if err := t.end(); err != nil {
			return err
		}
	}
	return nil
}

func (t *tableWriter) nation() error {
	for k, n := range nations {
		t.int(int64(k))
		t.str(n.name)
		t.int(int64(n.region))
		t.text(31, 114)
		t.sep()
		if err := t.end(); err != nil {
			return err
		}
	}
	return nil
}

// Day numbers count from STARTDATE, 1992-01-01.
var (
	startDate   = time.Date(1992, 1, 1, 0, 0, 0, 0, time.UTC)
	endDay      = dayOf(1998, 12, 31)
	currentDay  = dayOf(1995, 6, 17)
	dateStrings = func() []string {
		s := make([]string, endDay+1)
		for d := range s {
			s[d] = startDate.AddDate(0, 0, d).Format(time.DateOnly)
		}
		return s
	}()
)

func dayOf(y int, m time.Month, d int) int64 {
	return int64(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Sub(startDate).Hours() / 24)
}
