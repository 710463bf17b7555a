package sql

import "testing"

// TestParseStreamStatements checks the Table Stream statements parse and
// round-trip through Format.
func TestParseStreamStatements(t *testing.T) {
	for _, in := range []string{
		"CREATE STREAM s ON TABLE t",
		"CREATE STREAM IF NOT EXISTS `d`.`s` ON TABLE `d2`.`t` COMMENT 'c' PROPERTIES (\"type\" = \"min_delta\", \"show_initial_rows\" = \"true\")",
		"CREATE OR REPLACE STREAM s ON TABLE t PROPERTIES (\"type\" = \"detail\")",
		"CREATE STREAM s ON TABLE internal.db.t",
		"DROP STREAM IF EXISTS s FORCE",
		"SHOW STREAMS FROM d LIKE 's%'",
		"SHOW CREATE STREAM d.s",
		"ALTER STREAM s SET COMMENT 'x'",
		"ALTER STREAM s MODIFY COMMENT 'x'",
		"SELECT * FROM s@reset()",
		"SELECT * FROM s@snapshot('unknown'='x')",
		"SELECT * FROM s@snapshot(x, y) AS a",
	} {
		stmts, err := Parse(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		out := Format(stmts[0])
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("%s: formatted %q does not parse: %v", in, out, err)
		}
		if f := Format(again[0]); f != out {
			t.Fatalf("%s: %q formats to %q", in, out, f)
		}
	}
	stmts, _ := Parse("SELECT * FROM s@snapshot(`x`)")
	sp := stmts[0].(*Select).From.ScanParams
	if !sp.HasRaw || sp.Raw != "`x`" {
		t.Fatalf("raw args = %q", sp.Raw)
	}
	stmts, err := Parse("CREATE STREAM s ON TABLE INTERNAL.db.t")
	if err != nil || stmts[0].(*CreateStream).Table != (TableName{DB: "db", Name: "t"}) {
		t.Fatalf("catalog-qualified base table: %v %+v", err, stmts)
	}
	if _, err := Parse("CREATE STREAM s ON TABLE hive.db.t"); err == nil {
		t.Fatal("an external catalog was accepted")
	}
	stmts, _ = Parse("CREATE OR REPLACE STREAM s ON TABLE t")
	if !stmts[0].(*CreateStream).OrReplace {
		t.Fatal("OR REPLACE lost")
	}
}
