package httpapi

import "net/http"

// beAuth checks Basic auth on the BE-style endpoints (the error log) as
// Doris's HttpHandlerWithAuth with enable_all_http_auth=true
// (be/src/http/http_handler_with_auth.cpp): no Basic credentials answer 401
// with the challenge `WWW-Authenticate: Basic realm="Restricted"`, so a
// browser asks for them; wrong ones answer 403. Both bodies are empty.
func (s *Server) beAuth(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := basicAuth(r)
		switch {
		case !ok:
			w.Header().Set("WWW-Authenticate", `Basic realm="Restricted"`)
			emptyReply(w, http.StatusUnauthorized)
		case user != s.opts.User || pass != s.opts.Password:
			emptyReply(w, http.StatusForbidden)
		default:
			next(w, r)
		}
	}
}

// emptyReply is HttpChannel::send_reply without content: libevent's
// default Content-Type and no body.
func emptyReply(w http.ResponseWriter, status int) {
	w.Header().Set("Content-Type", "text/html; charset=ISO-8859-1")
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(status)
}
