package engine

import (
	"strings"

	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/types"
)

// deleteUsing is DELETE FROM t [alias] USING relations [WHERE cond]
// (DeleteFromUsingCommand): as in Doris, an insert of delete-sign rows for
// the keys of t's rows that the join of t with the relations keeps. Unique
// Key tables only. It reads the matching keys with one query, then marks
// those rows deleted in one commit, with their current values as the
// before images.
func (s *Session) deleteUsing(t *catalog.Table, st *sql.Delete) (*Result, error) {
	if t.Keys != catalog.UniqueKeys {
		return nil, errorf("delete command on with using clause only supports unique key model")
	}
	target := &sql.TableRef{Table: st.Table, Alias: st.Alias, Partitions: st.Partitions}
	q, keyCols := joinKeysQuery(t, target, st.Alias, st.Using, st.Where)
	res, err := s.query(q)
	if err != nil {
		return nil, err
	}
	keys := make(map[string]bool, len(res.Rows))
	for _, r := range res.Rows {
		keys[keyString(r)] = true
	}
	if len(keys) == 0 {
		return &Result{}, nil
	}
	all, _, err := s.matchRows(t, st.Alias, nil, s.evalContext())
	if err != nil {
		return nil, err
	}
	var rows [][]types.Value
	key := make([]types.Value, len(keyCols))
	for _, r := range all {
		for i, c := range keyCols {
			key[i] = r[c]
		}
		if keys[keyString(key)] {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return &Result{}, nil
	}
	if _, err := s.e.writer.Commit(s.deleteMarkers(t, rows)); err != nil {
		return nil, err
	}
	return &Result{Affected: int64(len(rows))}, nil
}

// keyString identifies a key tuple: each value's kind and text.
func keyString(vals []types.Value) string {
	var b strings.Builder
	for _, v := range vals {
		b.WriteByte(byte(v.Kind))
		b.WriteString(types.Format(v, nil))
		b.WriteByte(0)
	}
	return b.String()
}
