package tpch

// orderKey is the key of the i-th order (from 0): the specification uses
// only the first 8 of every 32 keys.
func orderKey(i int64) int64 { return i/8*32 + i%8 + 1 }

// customerKey draws O_CUSTKEY. A third of the customers (keys divisible by
// 3) place no orders: as dbgen does, a key divisible by 3 moves to the key
// above (below at the end), so keys 3k+1 get twice the orders of keys 3k+2
// and query 13's histogram has dbgen's two humps.
func (t *tableWriter) customerKey() int64 {
	c := t.uniform(1, t.g.cust)
	for delta := int64(1); c%3 == 0; delta = -delta {
		c = min(c+delta, t.g.cust)
	}
	return c
}

// order is one generated order before it is written.
type order struct {
	key, cust, day, clerk int64
	priority              string
	comment               []byte
	total                 int64 // cents
	status                byte
}

// ordersAndLines generates SF*1,500,000 orders with 1 to 7 lines each and
// writes the orders (wantOrders) or their lines. Both files come from the
// same draws, so each line belongs to an order of the other file.
func (t *tableWriter) ordersAndLines(wantOrders bool) error {
	var o order
	var lines []byte
	for i := int64(0); i < t.g.orders; i++ {
		o.key = orderKey(i)
		o.cust = t.customerKey()
		o.day = t.uniform(0, endDay-151)
		o.priority = pick(t.r, priorities)
		o.clerk = t.uniform(1, t.g.clerks)
		t.text(19, 78)
		o.comment = append(o.comment[:0], t.row...)
		t.row = t.row[:0]
		lines = t.lines(&o, lines[:0])
		if !wantOrders {
			if _, err := t.w.Write(lines); err != nil {
				return err
			}
			continue
		}
		t.writeOrder(&o)
		if err := t.end(); err != nil {
			return err
		}
	}
	return nil
}

func (t *tableWriter) writeOrder(o *order) {
	t.int(o.key)
	t.int(o.cust)
	t.row = append(t.row, o.status, '|')
	t.money(o.total)
	t.str(dateStrings[o.day])
	t.str(o.priority)
	t.keyName("Clerk#", o.clerk)
	t.int(0)
	t.row = append(t.row, o.comment...)
	t.sep()
}

// lines draws o's lines, appends them to b and sets o's total price and
// status.
func (t *tableWriter) lines(o *order, b []byte) []byte {
	n := t.uniform(1, 7)
	o.total = 0
	open, filled := 0, 0
	for ln := int64(1); ln <= n; ln++ {
		part := t.uniform(1, t.g.parts)
		supp := t.g.partSupplier(part, t.uniform(0, 3))
		qty := t.uniform(1, 50)
		disc := t.uniform(0, 10)
		tax := t.uniform(0, 8)
		ship := o.day + t.uniform(1, 121)
		commit := o.day + t.uniform(30, 90)
		receipt := ship + t.uniform(1, 30)
		ext := qty * retailPrice(part)
		o.total += (ext*(100+tax)*(100-disc) + 5000) / 10000
		t.int(o.key)
		t.int(part)
		t.int(supp)
		t.int(ln)
		t.money(qty * 100)
		t.money(ext)
		t.money(disc)
		t.money(tax)
		switch {
		case receipt > currentDay:
			t.str("N")
		case t.r.IntN(2) == 0:
			t.str("R")
		default:
			t.str("A")
		}
		if ship > currentDay {
			t.str("O")
			open++
		} else {
			t.str("F")
			filled++
		}
		t.str(dateStrings[ship])
		t.str(dateStrings[commit])
		t.str(dateStrings[receipt])
		t.str(pick(t.r, instructions))
		t.str(pick(t.r, shipModes))
		t.text(10, 43)
		t.sep()
		t.row = append(t.row, '\n')
		b = append(b, t.row...)
		t.row = t.row[:0]
	}
	switch {
	case open == 0:
		o.status = 'F'
	case filled == 0:
		o.status = 'O'
	default:
		o.status = 'P'
	}
	return b
}
