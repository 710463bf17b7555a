package tpch

import "math"

// supplier writes SF*10,000 suppliers. SF*5 of them (at least one) carry
// "Customer ... Complaints" in S_COMMENT and as many others "Customer ...
// Recommends" (query 16 excludes the first kind).
func (t *tableWriter) supplier() error {
	n := max(1, int64(math.Round(t.g.sf*5)))
	marked := map[int64]string{}
	for _, word := range []string{"Complaints", "Recommends"} {
		for i := int64(0); i < n && int64(len(marked)) < t.g.supp; {
			k := t.uniform(1, t.g.supp)
			if _, ok := marked[k]; !ok {
				marked[k] = word
				i++
			}
		}
	}
	for k := int64(1); k <= t.g.supp; k++ {
		t.int(k)
		t.keyName("Supplier#", k)
		t.vstring(10, 40)
		t.sep()
		nation := t.uniform(0, 24)
		t.int(nation)
		t.phone(nation)
		t.money(t.uniform(-99_999, 999_999))
		start := len(t.row)
		t.text(25, 100)
		if word, ok := marked[k]; ok {
			t.mark(start, word)
		}
		t.sep()
		if err := t.end(); err != nil {
			return err
		}
	}
	return nil
}

// mark overwrites the comment that starts at row[start:] with "Customer",
// some of the comment and word, at a random position.
func (t *tableWriter) mark(start int, word string) {
	c := t.row[start:]
	const customer = "Customer "
	room := len(c) - len(customer) - len(word)
	gap := int(t.uniform(0, int64(room)/2))
	at := int(t.uniform(0, int64(room-gap)))
	copy(c[at:], customer)
	copy(c[at+len(customer)+gap:], word)
}

// customer writes SF*150,000 customers.
func (t *tableWriter) customer() error {
	for k := int64(1); k <= t.g.cust; k++ {
		t.int(k)
		t.keyName("Customer#", k)
		t.vstring(10, 40)
		t.sep()
		nation := t.uniform(0, 24)
		t.int(nation)
		t.phone(nation)
		t.money(t.uniform(-99_999, 999_999))
		t.str(pick(t.r, segments))
		t.text(29, 116)
		t.sep()
		if err := t.end(); err != nil {
			return err
		}
	}
	return nil
}

// retailPrice is P_RETAILPRICE in cents, a function of the key.
func retailPrice(partkey int64) int64 {
	return 90_000 + (partkey/10)%20_001 + 100*(partkey%1_000)
}

// part writes SF*200,000 parts.
func (t *tableWriter) part() error {
	var used [5]int
	for k := int64(1); k <= t.g.parts; k++ {
		t.int(k)
		// Five distinct words.
		for i := range used {
		again:
			w := t.r.IntN(len(partNameWords))
			for _, u := range used[:i] {
				if u == w {
					goto again
				}
			}
			used[i] = w
			if i > 0 {
				t.row = append(t.row, ' ')
			}
			t.row = append(t.row, partNameWords[w]...)
		}
		t.sep()
		m := t.uniform(1, 5)
		t.row = append(t.row, "Manufacturer#"...)
		t.int(m)
		t.row = append(t.row, "Brand#"...)
		t.int(m*10 + t.uniform(1, 5))
		t.row = append(append(append(append(t.row, pick(t.r, typeSyllable1)...), ' '), pick(t.r, typeSyllable2)...), ' ')
		t.str(pick(t.r, typeSyllable3))
		t.int(t.uniform(1, 50))
		t.row = append(append(t.row, pick(t.r, containerSyllable1)...), ' ')
		t.str(pick(t.r, containerSyllable2))
		t.money(retailPrice(k))
		t.text(5, 22)
		t.sep()
		if err := t.end(); err != nil {
			return err
		}
	}
	return nil
}

// partSupplier is the i-th (0..3) supplier of partkey, the specification's
// formula; lineitem draws its supplier from the same four.
func (g *Generator) partSupplier(partkey, i int64) int64 {
	s := g.supp
	return (partkey+i*(s/4+(partkey-1)/s))%s + 1
}

// partsupp writes four rows per part.
func (t *tableWriter) partsupp() error {
	for k := int64(1); k <= t.g.parts; k++ {
		for i := int64(0); i < 4; i++ {
			t.int(k)
			t.int(t.g.partSupplier(k, i))
			t.int(t.uniform(1, 9_999))
			t.money(t.uniform(100, 100_000))
			t.text(49, 198)
			t.sep()
			if err := t.end(); err != nil {
				return err
			}
		}
	}
	return nil
}
