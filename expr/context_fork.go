package expr

// Fork returns a Context for evaluating on another goroutine alongside c:
// the same time zone, reference time and session, with its own argument
// and lambda scratch (the scratch of one Context must not be shared by two
// goroutines). The reference time is fixed first so both see the same one.
func (c *Context) Fork() *Context {
	c.now()
	return &Context{Loc: c.Loc, Now: c.Now, Session: c.Session}
}
