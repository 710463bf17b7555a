package engine

import (
	"sync"
	"sync/atomic"
)

// globalVars holds the values set with SET GLOBAL, which new sessions start
// from. They last until the engine closes: loadgw does not persist them.
type globalVars struct {
	mu   sync.Mutex
	vals map[string]string
	// gen counts the changes of vals, each counted after it is made
	// (sessions keep values read as of one count: vars_hot.go).
	gen atomic.Uint64
}

// setGlobalVar records SET GLOBAL name = val.
func (e *Engine) setGlobalVar(name, val string) {
	e.globals.mu.Lock()
	defer e.globals.mu.Unlock()
	if e.globals.vals == nil {
		e.globals.vals = make(map[string]string)
	}
	e.globals.vals[name] = val
	e.globals.gen.Add(1)
}

// defaultVar is the value a session that never set name sees: the global
// value, else Doris's default (the engine's time zone for zones).
func (e *Engine) defaultVar(name string, d varDef) string {
	e.globals.mu.Lock()
	v, ok := e.globals.vals[name]
	e.globals.mu.Unlock()
	if ok {
		return v
	}
	return e.zoneDefault(d)
}

// zoneDefault is d's default, with the engine's time zone for a zone
// variable (Doris shows the FE's system time zone).
func (e *Engine) zoneDefault(d varDef) string {
	if d.kind == varZone {
		return e.opts.TimeZone
	}
	return d.def
}
