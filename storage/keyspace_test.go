package storage

import (
	"sort"
	"strings"
	"testing"
)

// topPrefixes are the top-level entries of the key space, in byte order.
var topPrefixes = []string{
	PrefixAutoInc, PrefixBinlog, KeyCatalog, PrefixLoadHistory, PrefixLabels, PrefixMaintenance, PrefixStream, PrefixRows, PrefixStage,
}

// TestKeyspaceOrder checks the orderings keyspace.go documents, so a change
// of a prefix that breaks one fails here.
func TestKeyspaceOrder(t *testing.T) {
	if !sort.StringsAreSorted(topPrefixes) {
		t.Fatalf("top-level prefixes are not in byte order: %q", topPrefixes)
	}
	for i, p := range topPrefixes {
		for j, q := range topPrefixes {
			if i != j && strings.HasPrefix(q, p) {
				t.Errorf("prefix %q is a prefix of %q", p, q)
			}
			if i != j && (p == PrefixBinlog || p == PrefixRows) && q[0] == p[0] {
				t.Errorf("%q shares the first byte of the table prefix %q", q, p)
			}
		}
	}
	// A commit writes change records, labels, rows and the staging range's
	// removal, in this key order.
	commit := []string{PrefixBinlog, PrefixLabels, PrefixRows, PrefixStage}
	if !sort.StringsAreSorted(commit) {
		t.Errorf("a commit's prefixes are out of order: %q", commit)
	}
	nested := map[string][]string{
		PrefixLabels:      {PrefixLabelActive, PrefixLabelFinish, PrefixLabelName, PrefixLabelTxn, KeyLabelVersion, KeyLabelWindow},
		PrefixMaintenance: {PrefixBinlogClean, KeyTSOWindow},
	}
	for top, subs := range nested {
		for i, s := range subs {
			if !strings.HasPrefix(s, top) {
				t.Errorf("%q is not under %q", s, top)
			}
			for j, o := range subs {
				if i != j && strings.HasPrefix(o, s) {
					t.Errorf("prefix %q is a prefix of %q", s, o)
				}
			}
		}
	}
}
