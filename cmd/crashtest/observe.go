package main

import (
	"fmt"
	"strconv"
	"strings"
)

// Statements that read what the server shows; %d is ownKeyBase.
const (
	selectOwnDup  = "SELECT lid, count(*), sum(i), min(i), max(i) FROM %s GROUP BY lid"
	selectOwnUniq = "SELECT lid, count(*), sum(k), min(k), max(k) FROM %s WHERE k >= %d GROUP BY lid"
	selectShared  = "SELECT k, lid FROM %s WHERE k < %d"
	selectBinOwn  = `SELECT lid, count(*), count(DISTINCT __DORIS_BINLOG_TSO__), min(__DORIS_BINLOG_TSO__), ` +
		`min(__DORIS_BINLOG_OP__), max(__DORIS_BINLOG_OP__) FROM binlog("table" = "%s")%s GROUP BY lid`
	// selectIndexed is answered through idx_i: the values asked select
	// few rows (see indexVals).
	selectIndexed   = "SELECT lid, i, pad FROM %s WHERE i IN (%s)"
	selectBinShared = `SELECT k, lid, __DORIS_BINLOG_OP__, __DORIS_BINLOG_TSO__, __BEFORE__lid__ FROM binlog("table" = "%s") ` +
		`WHERE k < %d ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__`
)

// observe reads the tables of databases 0..dbs-1 and the load states of
// the given loads; the indexed tables are also asked for their rows whose
// i is one of indexVals, through their index.
func observe(s *server, dbs int, ask []*Load, indexVals []int64) (*Observed, error) {
	obs := &Observed{
		IndexVals:     indexVals,
		Indexed:       map[string][]IndexRow{},
		IndexPlans:    map[string]string{},
		States:        map[int64]string{},
		Own:           map[string]map[int64]OwnAgg{},
		OwnBinlog:     map[string]map[int64]BinAgg{},
		Shared:        map[string]map[int64]int64{},
		SharedRecords: map[string][]Record{},
	}
	for _, l := range ask {
		st, err := s.loadState(l)
		if err != nil {
			return nil, err
		}
		obs.States[l.LID] = st
	}
	for i := 0; i < dbs; i++ {
		for t := tableKind(0); t < numTables; t++ {
			if err := observeTable(s, obs, dbName(i), t); err != nil {
				return nil, err
			}
		}
	}
	return obs, nil
}

func observeTable(s *server, obs *Observed, db string, t tableKind) error {
	id := db + "." + t.String()
	stmt := fmt.Sprintf(selectOwnDup, t)
	if t.unique() {
		stmt = fmt.Sprintf(selectOwnUniq, t, ownKeyBase)
	}
	rows, err := s.query(db, stmt)
	if err != nil {
		return err
	}
	obs.Own[id] = map[int64]OwnAgg{}
	for _, r := range rows {
		c, err := ints(r, 5)
		if err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
		obs.Own[id][c[0]] = OwnAgg{Count: c[1], Sum: c[2], Min: c[3], Max: c[4]}
	}
	if t.binlog() {
		if err := observeBinlogOwn(s, obs, db, t); err != nil {
			return err
		}
	}
	if t.indexed() {
		if err := observeIndexed(s, obs, db, t); err != nil {
			return err
		}
	}
	if !t.unique() {
		return nil
	}
	if err := observeShared(s, obs, db, t); err != nil {
		return err
	}
	if t.binlog() {
		return observeBinlogShared(s, obs, db, t)
	}
	return nil
}

// observeIndexed reads the rows whose i is one of obs.IndexVals and the
// plan of that query.
func observeIndexed(s *server, obs *Observed, db string, t tableKind) error {
	id := db + "." + t.String()
	vals := make([]string, len(obs.IndexVals))
	for j, x := range obs.IndexVals {
		vals[j] = strconv.FormatInt(x, 10)
	}
	stmt := fmt.Sprintf(selectIndexed, t, strings.Join(vals, ", "))
	plan, err := s.query(db, "EXPLAIN VERBOSE "+stmt)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, r := range plan {
		for _, c := range r {
			fmt.Fprintln(&b, c)
		}
	}
	obs.IndexPlans[id] = b.String()
	rows, err := s.query(db, stmt)
	if err != nil {
		return err
	}
	obs.Indexed[id] = []IndexRow{}
	for _, r := range rows {
		if len(r) != 3 {
			return fmt.Errorf("%s: row %v", stmt, r)
		}
		c, err := ints(r[:2], 2)
		if err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
		p, ok := r[2].(string)
		if !ok {
			return fmt.Errorf("%s: row %v: pad is not a string", stmt, r)
		}
		obs.Indexed[id] = append(obs.Indexed[id], IndexRow{LID: c[0], I: c[1], Pad: p})
	}
	return nil
}

func observeBinlogOwn(s *server, obs *Observed, db string, t tableKind) error {
	id := db + "." + t.String()
	where := ""
	if t.unique() {
		where = " WHERE k >= " + strconv.Itoa(ownKeyBase)
	}
	stmt := fmt.Sprintf(selectBinOwn, t, where)
	rows, err := s.query(db, stmt)
	if err != nil {
		return err
	}
	obs.OwnBinlog[id] = map[int64]BinAgg{}
	for _, r := range rows {
		c, err := ints(r, 6)
		if err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
		obs.OwnBinlog[id][c[0]] = BinAgg{Count: c[1], DistinctTSOs: c[2], TSO: c[3], MinOp: c[4], MaxOp: c[5]}
	}
	return nil
}

func observeShared(s *server, obs *Observed, db string, t tableKind) error {
	id := db + "." + t.String()
	stmt := fmt.Sprintf(selectShared, t, ownKeyBase)
	rows, err := s.query(db, stmt)
	if err != nil {
		return err
	}
	obs.Shared[id] = map[int64]int64{}
	for _, r := range rows {
		c, err := ints(r, 2)
		if err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
		obs.Shared[id][c[0]] = c[1]
	}
	return nil
}

func observeBinlogShared(s *server, obs *Observed, db string, t tableKind) error {
	id := db + "." + t.String()
	stmt := fmt.Sprintf(selectBinShared, t, ownKeyBase)
	rows, err := s.query(db, stmt)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if len(r) != 5 {
			return fmt.Errorf("%s: row %v", stmt, r)
		}
		c, err := ints(r[:4], 4)
		if err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
		rec := Record{K: c[0], LID: c[1], Op: c[2], TSO: c[3]}
		if r[4] != nil {
			b, ok := r[4].(int64)
			if !ok {
				return fmt.Errorf("%s: before image %v", stmt, r[4])
			}
			rec.Before = &b
		}
		obs.SharedRecords[id] = append(obs.SharedRecords[id], rec)
	}
	return nil
}

// ints converts a row of n non-null integers.
func ints(row []any, n int) ([]int64, error) {
	if len(row) != n {
		return nil, fmt.Errorf("row %v has %d cells, want %d", row, len(row), n)
	}
	out := make([]int64, n)
	for i, c := range row {
		v, ok := c.(int64)
		if !ok {
			return nil, fmt.Errorf("row %v: cell %d is not an integer", row, i)
		}
		out[i] = v
	}
	return out, nil
}
