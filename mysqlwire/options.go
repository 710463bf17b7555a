package mysqlwire

import (
	"crypto/tls"
	"time"

	"go.uber.org/zap"
)

// Options configures a Server. The zero value of each field means its
// default.
type Options struct {
	// User and Password are the account clients log in with
	// (mysql_native_password), the same as the HTTP API's Basic auth.
	// The default user is "root" with an empty password.
	User     string
	Password string
	// MaxConnections bounds the open connections; one more is answered
	// with Doris's "Reach limit of connections" error and closed. The
	// default value is 1024 (Doris's qe_max_connection).
	MaxConnections int
	// IdleTimeout closes a connection that sends nothing for this long
	// between statements or in the middle of one (Doris's wait_timeout).
	// The default value is 8 hours.
	IdleTimeout time.Duration
	// HandshakeTimeout bounds the time from accepting a connection to a
	// successful login. The default value is 10 seconds.
	HandshakeTimeout time.Duration
	// WriteTimeout bounds each write of an answer to a client that does
	// not read it (Doris's net_write_timeout). The default value is 600
	// seconds.
	WriteTimeout time.Duration
	// MaxPacketBytes bounds one request (a statement, a prepared
	// statement's parameters); a larger one closes the connection, as
	// MySQL's max_allowed_packet. The default value is 16 MiB
	// (Doris's max_allowed_packet).
	MaxPacketBytes int64
	// TLS, when set, lets clients switch the connection to TLS after the
	// handshake (CLIENT_SSL), as Doris's enable_ssl does; plain
	// connections are still accepted. The default is nil: no TLS.
	TLS *tls.Config
	// RowsPerBatch is how many rows of a result set are converted and
	// written at a time. The default value is 1024.
	RowsPerBatch int
	// Logger receives connection and panic logs. The default is a no-op.
	Logger *zap.Logger
}

// EnsureDefaults fills the zero fields with their defaults.
func (o *Options) EnsureDefaults() {
	if o.User == "" {
		o.User = "root"
	}
	if o.MaxConnections <= 0 {
		o.MaxConnections = 1024
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 8 * time.Hour
	}
	if o.HandshakeTimeout <= 0 {
		o.HandshakeTimeout = 10 * time.Second
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = 600 * time.Second
	}
	if o.MaxPacketBytes <= 0 {
		o.MaxPacketBytes = 16 << 20
	}
	if o.RowsPerBatch <= 0 {
		o.RowsPerBatch = 1024
	}
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
}
