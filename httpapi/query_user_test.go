package httpapi

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestQuerySessionUser checks that the SQL endpoint's session knows the
// account the way auth reads it: "root@default_cluster" and
// "default_cluster:root" are root, as over the MySQL protocol.
func TestQuerySessionUser(t *testing.T) {
	srv := newTestServer(t)
	for _, user := range []string{"root", "root@default_cluster", "default_cluster:root"} {
		req, _ := http.NewRequest("POST", srv.URL+"/api/query/default_cluster/information_schema",
			strings.NewReader(`{"stmt":"SELECT CURRENT_USER(), USER()"}`))
		req.SetBasicAuth(user, "")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), `["\u0027root\u0027@\u0027%\u0027","\u0027root\u0027@\u0027127.0.0.1\u0027"]`) {
			t.Errorf("user %q: %s", user, b)
		}
	}
}
