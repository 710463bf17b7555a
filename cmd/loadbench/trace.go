package main

import (
	"flag"
	"os"
	"runtime/trace"
)

var traceOut = flag.String("trace", "", "write a runtime/trace of the measured loads to this file (the server's stage regions: go tool trace, \"User-defined regions\")")

// startTrace starts an execution trace into the file --trace names, if
// any; stop ends it and closes the file.
func startTrace() (stop func(), err error) {
	if *traceOut == "" {
		return func() {}, nil
	}
	f, err := os.Create(*traceOut)
	if err != nil {
		return nil, err
	}
	if err := trace.Start(f); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() {
		trace.Stop()
		_ = f.Close()
	}, nil
}
