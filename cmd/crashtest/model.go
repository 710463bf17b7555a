package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strconv"
)

// tableKind is one of the four tables every database of the test holds.
type tableKind int

const (
	tDup        tableKind = iota // Duplicate Key
	tDupBinlog                   // Duplicate Key with Row Binlog
	tUniq                        // Unique Key with a sequence column
	tUniqBinlog                  // Unique Key with Row Binlog and before images
	numTables
)

var tableNames = [numTables]string{"dup", "dupbl", "uniq", "ubl"}

func (t tableKind) String() string { return tableNames[t] }

// unique reports whether the table is a Unique Key table: its rows are keyed
// by k, and loads also write shared keys.
func (t tableKind) unique() bool { return t == tUniq || t == tUniqBinlog }

// indexed reports whether the table has a built INVERTED index on i
// (idx_i): the Duplicate Key tables.
func (t tableKind) indexed() bool { return t == tDup || t == tDupBinlog }

// binlog reports whether the table records change records.
func (t tableKind) binlog() bool { return t == tDupBinlog || t == tUniqBinlog }

// createTable is the DDL of each table.
var createTable = [numTables]string{
	"CREATE TABLE dup (lid BIGINT, i INT, pad VARCHAR(64), INDEX idx_i (i) USING INVERTED) DUPLICATE KEY(lid) DISTRIBUTED BY HASH(lid) BUCKETS 1",
	"CREATE TABLE dupbl (lid BIGINT, i INT, pad VARCHAR(64), INDEX idx_i (i) USING INVERTED) DUPLICATE KEY(lid) DISTRIBUTED BY HASH(lid) BUCKETS 1 " +
		`PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW")`,
	"CREATE TABLE uniq (k BIGINT, lid BIGINT, sq BIGINT, pad VARCHAR(64)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 " +
		`PROPERTIES ("function_column.sequence_col" = "sq")`,
	"CREATE TABLE ubl (k BIGINT, lid BIGINT, pad VARCHAR(64)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 " +
		`PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW", "binlog.need_historical_value" = "true")`,
}

const (
	// lidsPerDB bounds the loads of one database. loadgw keeps every label
	// for --label-keep, but Doris forgets labels past 2000 finished txns per
	// database (label_num_threshold); staying under that keeps the check
	// valid against either rule. Every load is sent at most twice, so a
	// database sees at most 1200 txns.
	lidsPerDB = 600
	// ownKeyBase separates the keys of the Unique Key tables: row i of load
	// lid has key lid*ownKeyBase+i+1, which no other load writes; keys below
	// sharedKeys are written by many loads.
	ownKeyBase = 1_000_000
	sharedKeys = 64
)

// State is what the client knows of a load.
type State int

const (
	Pending      State = iota // sent, no answer: committed, precommitted or nothing
	Failed                    // answered with a failure: nothing visible
	Committed                 // acknowledged: Success, or a 2PC commit answered Success
	Precommitted              // 2PC load answered Success, neither committed nor aborted
	Aborted                   // 2PC abort answered Success
	CommitSent                // 2PC commit sent, no answer: committed or still precommitted
	AbortSent                 // 2PC abort sent, no answer: aborted or still precommitted
	Lost                      // after a restart: label free and nothing visible
	Broken                    // a violation left its expected state unknown; not checked further
)

var stateNames = [...]string{"Pending", "Failed", "Committed", "Precommitted", "Aborted", "CommitSent", "AbortSent", "Lost", "Broken"}

func (s State) String() string { return stateNames[s] }

// Load is one stream load of the test: its rows are a pure function of its
// fields, so a retry sends the same body.
type Load struct {
	LID     int64
	Table   tableKind
	Rows    int     // own rows: i = 0..Rows-1 or keys lid*ownKeyBase+1..+Rows
	Shared  []int64 // shared keys written (Unique Key tables), each once
	Format  string  // csv, json (lines) or jsonarray
	Gzip    bool
	Chunked bool
	TwoPC   bool
	Large   bool // big enough to spill with the test's --load-memory-bytes
	// GroupCommit is the group_commit header (sync_mode or async_mode) of
	// a load sent without a label, or "": such a load cannot be asked
	// about or retried by label, so its outcome is what is visible.
	GroupCommit string

	State   State
	TxnID   int64 // 0 when not known
	Retried bool  // sent a second time under the same label after it was lost
}

// DB is the database of the load.
func (l *Load) DB() string { return dbName(int(l.LID / lidsPerDB)) }

func dbName(i int) string { return "crash" + strconv.Itoa(i) }

// Label is the load's label.
func (l *Load) Label() string { return "crash-" + strconv.FormatInt(l.LID, 10) }

// TableID is "db.table".
func (l *Load) TableID() string { return l.DB() + "." + l.Table.String() }

func (l *Load) String() string {
	s := fmt.Sprintf("load %d (label %s, %s, %d rows", l.LID, l.Label(), l.TableID(), l.Rows)
	if len(l.Shared) > 0 {
		s += fmt.Sprintf(" + %d shared keys", len(l.Shared))
	}
	s += ", " + l.Format
	if l.Gzip {
		s += ", gz"
	}
	if l.Chunked {
		s += ", chunked"
	}
	if l.TwoPC {
		s += ", 2PC"
	}
	if l.Large {
		s += ", spills"
	}
	return s + ")"
}

// ownX is the value of row i's identifying column: i itself in the
// Duplicate Key tables, the key in the Unique Key ones.
func (l *Load) ownX(i int) int64 {
	if l.Table.unique() {
		return l.LID*ownKeyBase + int64(i) + 1
	}
	return int64(i)
}

// expectedOwn is the aggregate of the load's own rows when it is visible.
func (l *Load) expectedOwn() OwnAgg {
	n := int64(l.Rows)
	lo, hi := l.ownX(0), l.ownX(l.Rows-1)
	return OwnAgg{Count: n, Sum: (lo + hi) * n / 2, Min: lo, Max: hi}
}

// pad is a deterministic filler of 0..39 letters.
func pad(lid int64, i int) string {
	h := uint64(lid)*0x9E3779B97F4A7C15 ^ uint64(i)*0xC2B2AE3D27D4EB4F
	h ^= h >> 29
	n := int(h % 40)
	b := make([]byte, n)
	for j := range b {
		h = h*6364136223846793005 + 1442695040888963407
		b[j] = 'a' + byte(h>>59)%26
	}
	return string(b)
}

// rowValues returns row i's column names and values; i >= Rows stands for
// shared key Shared[i-Rows].
func (l *Load) rowValues(i int) (names []string, vals []string) {
	p := pad(l.LID, i)
	lid := strconv.FormatInt(l.LID, 10)
	if !l.Table.unique() {
		return []string{"lid", "i", "pad"}, []string{lid, strconv.Itoa(i), p}
	}
	k := strconv.FormatInt(l.ownX(i), 10)
	if i >= l.Rows {
		k = strconv.FormatInt(l.Shared[i-l.Rows], 10)
	}
	if l.Table == tUniq {
		return []string{"k", "lid", "sq", "pad"}, []string{k, lid, lid, p}
	}
	return []string{"k", "lid", "pad"}, []string{k, lid, p}
}

// Body is the load's body, compressed when Gzip is set. Shared keys are
// spread among the own rows.
func (l *Load) Body() []byte {
	var b bytes.Buffer
	if l.Format == "jsonarray" {
		b.WriteByte('[')
	}
	for j, i := range rowOrder(l.Rows, len(l.Shared)) {
		names, vals := l.rowValues(i)
		switch l.Format {
		case "csv":
			for c, v := range vals {
				if c > 0 {
					b.WriteByte(',')
				}
				b.WriteString(v)
			}
			b.WriteByte('\n')
		default:
			if l.Format == "jsonarray" && j > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('{')
			for c, v := range vals {
				if c > 0 {
					b.WriteByte(',')
				}
				if names[c] == "pad" {
					v = strconv.Quote(v)
				}
				fmt.Fprintf(&b, "%q:%s", names[c], v)
			}
			b.WriteByte('}')
			if l.Format == "json" {
				b.WriteByte('\n')
			}
		}
	}
	if l.Format == "jsonarray" {
		b.WriteByte(']')
	}
	if !l.Gzip {
		return b.Bytes()
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, _ = zw.Write(b.Bytes())
	_ = zw.Close()
	return z.Bytes()
}

// rowOrder is the order of n own rows (0..n-1) and s shared rows (n..n+s-1)
// in a body: own rows in order, shared row t at position t*(n+s)/s.
func rowOrder(n, s int) []int {
	order := make([]int, 0, n+s)
	own, t := 0, 0
	for j := 0; j < n+s; j++ {
		if t < s && j == t*(n+s)/s {
			order = append(order, n+t)
			t++
			continue
		}
		order = append(order, own)
		own++
	}
	return order
}

// Headers are the stream load headers of the load.
func (l *Load) Headers() map[string]string {
	h := map[string]string{"label": l.Label()}
	if l.GroupCommit != "" {
		h = map[string]string{"group_commit": l.GroupCommit}
	}
	switch l.Format {
	case "csv":
		h["column_separator"] = ","
	case "json":
		h["format"] = "json"
		h["read_json_by_line"] = "true"
	case "jsonarray":
		h["format"] = "json"
		h["strip_outer_array"] = "true"
	}
	if l.Gzip {
		h["compress_type"] = "gz"
	}
	if l.TwoPC {
		h["two_phase_commit"] = "true"
	}
	return h
}
