package engine

import (
	"strings"
	"testing"
	"time"

	"loadgw/binlog"
	"loadgw/storage"
	"loadgw/types"
)

// TestBinlogFeatureDisabled runs with Options.DisableFeatureBinlog, Doris's
// enable_feature_binlog = false: CREATE TABLE still accepts and stores the
// binlog.* properties (PropertyAnalyzer.analyzeBinlogConfig runs either way),
// SHOW CREATE TABLE leaves them out (Env.getDdlStmt), and ALTER TABLE SET of
// a binlog.* property fails with Alter.java's text.
func TestBinlogFeatureDisabled(t *testing.T) {
	e, err := Open(t.TempDir(), Options{TimeZone: "UTC", DisableFeatureBinlog: true, Storage: storage.Options{NoSync: true, CacheBytes: 8 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession("")
	run := func(q string) (*Result, error) { return s.Execute(q) }
	for _, q := range []string{
		`CREATE DATABASE d`,
		`USE d`,
		`CREATE TABLE t (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
		 PROPERTIES ("replication_num" = "1", "binlog.enable" = "true", "binlog.format" = "ROW", "binlog.ttl_seconds" = "60")`,
		`ALTER TABLE t SET ("replication_num" = "1")`,
	} {
		if _, err := run(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	res, err := run(`SHOW CREATE TABLE t`)
	if err != nil {
		t.Fatal(err)
	}
	ddl := types.Format(res.Rows[0][1], time.UTC)
	if !strings.Contains(ddl, `"disable_auto_compaction" = "false",`) || strings.Contains(ddl, "binlog.") {
		t.Errorf("SHOW CREATE TABLE prints binlog properties with the feature off:\n%s", ddl)
	}
	tbl, err := e.cat.Table("d", "t")
	if err != nil {
		t.Fatal(err)
	}
	if tbl.Properties["binlog.ttl_seconds"] != "60" || !binlog.Enabled(tbl) {
		t.Errorf("binlog properties not stored as given: %v", tbl.Properties)
	}
	for _, q := range []string{
		`ALTER TABLE t SET ("binlog.ttl_seconds" = "120")`,
		`ALTER TABLE t SET ("binlog.enable" = "false")`,
	} {
		_, err := run(q)
		if err == nil || err.Error() != "Binlog feature is not enabled" {
			t.Errorf("%s: got %v, want Binlog feature is not enabled", q, err)
		}
	}
	// The table-model checks still apply.
	_, err = run(`CREATE TABLE a (k INT, v INT SUM) AGGREGATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
		PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW")`)
	if err == nil || err.Error() != "Only duplicate and mow table model support binlog<Row>" {
		t.Errorf("aggregate row binlog table: got %v", err)
	}
}
