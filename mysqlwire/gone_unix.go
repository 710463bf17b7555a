//go:build unix

package mysqlwire

import "syscall"

// peerClosed reports whether the other end of s closed it: a peek finds
// the end of the stream or a reset. Bytes waiting (the client's next
// command, a TLS alert) say nothing, and are left for the reader.
func peerClosed(s syscall.Conn) bool {
	rc, err := s.SyscallConn()
	if err != nil {
		return false
	}
	closed := false
	var b [1]byte
	_ = rc.Read(func(fd uintptr) bool {
		n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		closed = n == 0 && err == nil || err == syscall.ECONNRESET
		return true // one look; never wait for the socket
	})
	return closed
}
