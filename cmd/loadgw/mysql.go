package main

import (
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"net"
	"time"

	"go.uber.org/zap"

	"loadgw/engine"
	"loadgw/mysqlwire"
)

// mysqlConfig holds the flags of the MySQL protocol server.
type mysqlConfig struct {
	addr        string
	maxConns    int
	waitTimeout time.Duration
	maxPacket   int64
	tlsCert     string
	tlsKey      string
}

func mysqlFlags(fs *flag.FlagSet, c *mysqlConfig) {
	fs.StringVar(&c.addr, "mysql-addr", envOr("LOADGW_MYSQL_ADDR", ":9030"),
		"HOST:PORT of the MySQL protocol (Doris's query_port); empty turns it off (env LOADGW_MYSQL_ADDR)")
	fs.IntVar(&c.maxConns, "max-mysql-connections", 1024,
		"open MySQL connections; more are refused with Doris's 'Reach limit of connections' (Doris qe_max_connection)")
	c.waitTimeout = 8 * time.Hour
	fs.Var(duration{&c.waitTimeout}, "mysql-wait-timeout",
		"how long a MySQL connection may stay silent before it is closed (Doris wait_timeout)")
	c.maxPacket = 16 << 20
	fs.Var(byteSize{&c.maxPacket}, "mysql-max-packet-bytes",
		"largest MySQL request; a larger one closes the connection (Doris max_allowed_packet)")
	fs.StringVar(&c.tlsCert, "mysql-tls-cert", "", "PEM certificate (chain) that lets MySQL clients use TLS; needs --mysql-tls-key")
	fs.StringVar(&c.tlsKey, "mysql-tls-key", "", "PEM private key of --mysql-tls-cert")
}

// mysqlTLS loads the certificate and key of the MySQL port's TLS; nil
// when neither is given.
func mysqlTLS(c mysqlConfig) (*tls.Config, error) {
	if c.tlsCert == "" && c.tlsKey == "" {
		return nil, nil
	}
	if c.tlsCert == "" || c.tlsKey == "" {
		return nil, errors.New("--mysql-tls-cert and --mysql-tls-key go together")
	}
	cert, err := tls.LoadX509KeyPair(c.tlsCert, c.tlsKey)
	if err != nil {
		return nil, fmt.Errorf("cannot load the MySQL TLS certificate: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// startMySQL listens on the MySQL address, unless it is empty, and serves
// it in the background; a serving error goes to errc.
func startMySQL(c config, eng *engine.Engine, log *zap.Logger, errc chan<- error) (*mysqlwire.Server, error) {
	if c.mysql.addr == "" {
		return nil, nil
	}
	tlsConf, err := mysqlTLS(c.mysql)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", c.mysql.addr)
	if err != nil {
		return nil, fmt.Errorf("cannot listen on %s: %w", c.mysql.addr, err)
	}
	s := mysqlwire.New(eng, mysqlwire.Options{
		User: c.user, Password: c.password, Logger: log,
		MaxConnections: c.mysql.maxConns, IdleTimeout: c.mysql.waitTimeout, MaxPacketBytes: c.mysql.maxPacket,
		TLS: tlsConf,
	})
	log.Info("MySQL protocol started", zap.String("mysql_addr", ln.Addr().String()))
	go func() {
		if err := s.Serve(ln); err != nil {
			errc <- err
		}
	}()
	return s, nil
}
