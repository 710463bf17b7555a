package expr

// SlotIndex reports the input slot c reads when c is a plain column
// reference (ColumnSlot), and ok false for any other expression.
func SlotIndex(c Compiled) (idx int, ok bool) {
	n, ok := c.(*colNode)
	if !ok {
		return 0, false
	}
	return n.idx, true
}
