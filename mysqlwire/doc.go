// Package mysqlwire serves Doris's MySQL protocol (the FE's query port, 9030
// by default) over the engine: the same statements, sessions and texts as
// the HTTP SQL endpoint, one engine.Session per connection.
//
// The wire protocol itself (handshake, packets, text and binary result
// sets, prepared statements) is dolthub's fork of vitess's go/mysql server;
// this package supplies what Doris decides: authentication against
// loadgw's account, the column types and flags of a result set, values in
// Doris's text forms, the OK packet's info string of an INSERT and
// errors with Doris's codes and texts.
//
// Everything a client controls is bounded: the number of connections
// (Options.MaxConnections), how long a connection may stay silent (the
// handshake by Options.HandshakeTimeout, afterwards Doris's wait_timeout
// as Options.IdleTimeout), how long a result may take to be read
// (Options.WriteTimeout) and the size of one request
// (Options.MaxPacketBytes, Doris's max_allowed_packet). A panic while a
// statement runs is answered as Doris's "Unexpected exception" and the
// connection goes on.
package mysqlwire
