package httpapi

import "github.com/go-chi/chi/v5"

// routeConsole adds the console's page and data endpoints.
func (s *Server) routeConsole(r chi.Router) {}
