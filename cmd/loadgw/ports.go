package main

import (
	"net"
	"strconv"
)

// portOf is the port of a listen address (":8030", "0.0.0.0:8030"); 0
// when it has none or is empty, which leaves Doris's default shown.
func portOf(addr string) int {
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(p)
	return n
}
