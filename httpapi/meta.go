package httpapi

import (
	"net"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"loadgw/catalog"
	"loadgw/types"
)

// handleHealth is GET /api/health: loadgw is its own single backend.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, restResponse{Msg: "success", Code: 0,
		Data: map[string]int{"total_backend_num": 1, "online_backend_num": 1}})
}

// handleBackends is GET /api/backends: the one backend is loadgw itself, at
// the address the client reached.
func (s *Server) handleBackends(w http.ResponseWriter, r *http.Request) {
	host, port := splitHostPort(r)
	type backend struct {
		IP       string `json:"ip"`
		HTTPPort int    `json:"http_port"`
		IsAlive  bool   `json:"is_alive"`
	}
	writeJSON(w, http.StatusOK, restResponse{Msg: "success", Code: 0,
		Data: map[string][]backend{"backends": {{IP: host, HTTPPort: port, IsAlive: true}}}})
}

// splitHostPort is the host and port the request was sent to.
func splitHostPort(r *http.Request) (string, int) {
	host, p, err := net.SplitHostPort(r.Host)
	if err != nil {
		host, p = r.Host, "80"
	}
	port, _ := strconv.Atoi(p)
	return host, port
}

// schemaColumn is one entry of the _schema answer's properties.
type schemaColumn struct {
	Name            string `json:"name"`
	Type            string `json:"type"`
	Comment         string `json:"comment"`
	AggregationType string `json:"aggregation_type"`
	Precision       string `json:"precision,omitempty"`
	Scale           string `json:"scale,omitempty"`
}

// handleSchema is GET /api/{db}/{table}/_schema, as Doris's
// TableSchemaAction: the visible columns with their primitive type names and
// the table's keys type.
func (s *Server) handleSchema(w http.ResponseWriter, r *http.Request) {
	db, name := chi.URLParam(r, "db"), chi.URLParam(r, "table")
	t, err := s.engine.Catalog().Table(db, name)
	switch err {
	case nil:
	case catalog.ErrUnknownDB:
		writeJSON(w, http.StatusOK, restResponse{Msg: "Error", Code: 1, Data: "unknown databases, dbName=" + db})
		return
	default:
		writeJSON(w, http.StatusOK, restResponse{Msg: "Error", Code: 1, Data: "table not found, tableName=" + name})
		return
	}
	props := []schemaColumn{}
	for _, c := range t.Columns {
		if c.Hidden {
			continue
		}
		sc := schemaColumn{Name: c.Name, Type: types.PrimitiveName(c.Type), Comment: c.Comment, AggregationType: t.AggregationName(c)}
		if c.Type.Kind == types.Decimal {
			sc.Precision = strconv.Itoa(int(c.Type.Precision))
			sc.Scale = strconv.Itoa(int(c.Type.Scale))
		}
		props = append(props, sc)
	}
	writeJSON(w, http.StatusOK, restResponse{Msg: "success", Code: 0, Data: map[string]any{
		"status":         200,
		"keysType":       string(t.Keys),
		"schema_version": t.SchemaVersion,
		"properties":     props,
	}})
}
