package catalog

import (
	"loadgw/storage"
	"loadgw/types"
)

// DecodeKeyN is DecodeKey that fills only the first n key columns (in key
// order) and stops parsing after them; the other key columns of row keep
// their previous values. A reader that reads none of the later key columns
// (a projected scan) saves their decoding.
func (rc *RowCodec) DecodeKeyN(key []byte, row []types.Value, n int) error {
	b := key[len(rc.prefix) : len(key)-rc.KeySuffixLen()]
	var err error
	for j, i := range rc.keyIdx[:min(n, len(rc.keyIdx))] {
		row[i], b, err = storage.DecodeKey(b, rc.keyTypes[j])
		if err != nil {
			return err
		}
	}
	return nil
}

// KeyColumnsRead is the number of leading key columns a reader of the
// columns in need (nil: all) must decode: up to the last key column it
// reads.
func (rc *RowCodec) KeyColumnsRead(need ...[]bool) int {
	n := 0
	for j, i := range rc.keyIdx {
		for _, nd := range need {
			if nd == nil || nd[i] {
				n = j + 1
			}
		}
	}
	return n
}

// Need is the set of columns p reads.
func (p *Projection) Need() []bool { return p.need }
