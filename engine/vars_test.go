package engine

import (
	"testing"

	"loadgw/storage"
)

// TestDorisVarDefaults checks well-known variables against the defaults of
// Doris's SessionVariable.java (January 2026 master), and that each takes
// a SET and shows the new value.
func TestDorisVarDefaults(t *testing.T) {
	e, err := Open(t.TempDir(), Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, c := range []struct{ name, def, set, shown string }{
		{"enable_sql_cache", "true", "false", "false"},
		{"enable_query_cache", "false", "ON", "true"},
		{"query_timeout", "900", "60", "60"},
		{"insert_timeout", "14400", "100", "100"},
		{"exec_mem_limit", "100147483648", "2147483648", "2147483648"},
		{"parallel_pipeline_task_num", "0", "8", "8"},
		{"enable_insert_strict", "true", "0", "false"},
		{"enable_unique_key_partial_update", "false", "1", "true"},
		{"insert_max_filter_ratio", "1.0", "0.25", "0.25"},
		{"time_zone", "UTC", "'+08:00'", "+08:00"},
		{"sql_mode", "ONLY_FULL_GROUP_BY", "''", ""},
		{"batch_size", "4064", "1024", "1024"},
		{"enable_profile", "false", "true", "true"},
		{"sql_select_limit", "9223372036854775807", "10", "10"},
	} {
		s := e.NewSession("")
		if got := s.Var(c.name); got != c.def {
			t.Errorf("%s: default %q, want %q", c.name, got, c.def)
		}
		if _, err := s.Execute("SET " + c.name + " = " + c.set); err != nil {
			t.Errorf("SET %s: %v", c.name, err)
			continue
		}
		if got := s.Var(c.name); got != c.shown {
			t.Errorf("%s after SET %s: %q, want %q", c.name, c.set, got, c.shown)
		}
	}
}
