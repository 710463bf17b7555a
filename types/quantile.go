package types

import (
	"encoding/binary"
	"math"
	"slices"
)

// QUANTILE_STATE values, as Doris's QuantileState (be/src/util/
// quantile_state.cpp). A QuantileState Value holds the serialized form in S:
//
//	compression (float32 LE) | type | body
//	EMPTY 0; SINGLE 1 + value (float64 LE); EXPLICIT 2 + count (uint16 LE) + values
//
// Doris turns a state of more than 2048 values into a TDigest (type 3),
// whose percentiles are approximate. loadgw does not implement the TDigest:
// it keeps the values (type 0x82: count as uint32 LE, then the values) and
// answers exact percentiles.
const (
	qsEmpty        = 0
	qsSingle       = 1
	qsExplicit     = 2
	qsWideExplicit = 0x82

	// QuantileCompressionMin and Max bound to_quantile_state's compression.
	QuantileCompressionMin = 2048
	QuantileCompressionMax = 10000
	qsExplicitMax          = 2048
)

// QuantileSketch is a QUANTILE_STATE being built or read.
type QuantileSketch struct {
	Compression float32
	values      []float64
}

// NewQuantileSketch returns an empty state with Doris's default compression.
func NewQuantileSketch() QuantileSketch { return QuantileSketch{Compression: QuantileCompressionMin} }

// ParseQuantileState reads a serialized state (QuantileState::is_valid).
func ParseQuantileState(s string) (q QuantileSketch, ok bool) {
	b := []byte(s)
	if len(b) < 5 {
		return q, false
	}
	q.Compression = math.Float32frombits(binary.LittleEndian.Uint32(b))
	if q.Compression < QuantileCompressionMin || q.Compression > QuantileCompressionMax {
		return q, false
	}
	body := b[5:]
	n := 0
	switch b[4] {
	case qsEmpty:
		return q, len(body) == 0
	case qsSingle:
		n = 1
	case qsExplicit:
		if len(body) < 2 {
			return q, false
		}
		n, body = int(binary.LittleEndian.Uint16(body)), body[2:]
	case qsWideExplicit:
		if len(body) < 4 {
			return q, false
		}
		n, body = int(binary.LittleEndian.Uint32(body)), body[4:]
	default:
		return q, false
	}
	if len(body) != 8*n {
		return q, false
	}
	q.values = make([]float64, n)
	for i := range q.values {
		q.values[i] = math.Float64frombits(binary.LittleEndian.Uint64(body[8*i:]))
	}
	return q, true
}

// Add adds a value (QuantileState::add_value).
func (q *QuantileSketch) Add(x float64) { q.values = append(q.values, x) }

// Merge folds o into q.
func (q *QuantileSketch) Merge(o QuantileSketch) { q.values = append(q.values, o.values...) }

// Serialize returns q's serialized form.
func (q *QuantileSketch) Serialize() string {
	b := binary.LittleEndian.AppendUint32(nil, math.Float32bits(q.Compression))
	switch n := len(q.values); {
	case n == 0:
		return string(append(b, qsEmpty))
	case n == 1:
		b = append(b, qsSingle)
	case n <= qsExplicitMax:
		b = append(b, qsExplicit)
		b = binary.LittleEndian.AppendUint16(b, uint16(n))
	default:
		b = append(b, qsWideExplicit)
		b = binary.LittleEndian.AppendUint32(b, uint32(n))
	}
	for _, x := range q.values {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return string(b)
}

// Percentile is QuantileState::get_value_by_percentile for p in [0, 1]:
// NaN when empty, else linear interpolation between the sorted values
// around (n-1)p, computed as Doris does.
func (q *QuantileSketch) Percentile(p float32) float64 {
	n := len(q.values)
	switch n {
	case 0:
		return math.NaN()
	case 1:
		return q.values[0]
	}
	s := slices.Clone(q.values)
	slices.Sort(s)
	index := float64(n-1) * float64(p)
	i := int(index)
	if i == n-1 {
		return s[i]
	}
	return s[i+1]*(index-float64(i)) + s[i]*(float64(i+1)-index)
}
