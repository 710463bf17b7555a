package expr

// LikeMatch returns a function that reports whether a string matches the
// LIKE pattern p (% any sequence, _ one character, \ escapes), for code
// that filters outside an expression (SHOW statements).
func LikeMatch(p string) func(string) bool {
	m := compileLike(p)
	return m.match
}
