package engine

import (
	"strconv"
	"strings"

	"loadgw/binlog"
	"loadgw/stream"
	"loadgw/types"
)

var boolType = types.Type{Kind: types.Boolean}

// infoTableStreams is information_schema.table_streams: one row per
// stream, as Doris's TableStreamManager fills it (N/A for a base table
// that was dropped). IS_STALE is always false: as the spec says, it does
// not report TTL expiry.
func (s *Session) infoTableStreams() *infoTable {
	it := &infoTable{cols: []Column{
		col("DB_NAME", varcharType), col("STREAM_NAME", varcharType), col("STREAM_ID", bigintType),
		col("STREAM_TYPE", varcharType), col("CONSUME_TYPE", varcharType), col("STREAM_COMMENT", varcharType),
		col("BASE_TABLE_NAME", varcharType), col("BASE_TABLE_DB", varcharType), col("BASE_TABLE_CTL", varcharType),
		col("BASE_TABLE_TYPE", varcharType), col("ENABLED", boolType), col("IS_STALE", boolType),
		col("STALE_REASON", varcharType),
	}}
	for _, sm := range s.e.streams.List("") {
		name, db, ctl, typ := "N/A", "N/A", "N/A", "N/A"
		if t := s.e.tableByID(sm.TableID); t != nil {
			name, db, ctl, typ = t.Name, t.DB, "internal", "OLAP"
		}
		it.rows = append(it.rows, []types.Value{
			str(sm.DB), str(sm.Name), types.NewInt(types.BigInt, sm.ID), str("OLAP_TABLE_STREAM"),
			str(sm.Type.String()), str(sm.Comment), str(name), str(db), str(ctl), str(typ),
			types.NewBool(true), types.NewBool(false), str("N/A"),
		})
	}
	return it
}

// infoStreamConsumption is information_schema.table_stream_consumption:
// one row per stream and partition of its base table. CONSUMPTION_STATUS
// is the offset TSO (N/A when the partition has none yet), LAG the newest
// commit TSO of the partition minus the offset (N/A for a partition with
// changes and no offset, 0 without changes), LAST_CONSUMPTION_TIME the
// unix ms of the last consumption or -1.
func (s *Session) infoStreamConsumption() *infoTable {
	it := &infoTable{cols: []Column{
		col("DB_NAME", varcharType), col("STREAM_NAME", varcharType), col("STREAM_ID", bigintType),
		col("UNIT", varcharType), col("CONSUMPTION_STATUS", varcharType), col("LAG", varcharType),
		col("LAST_CONSUMPTION_TIME", bigintType),
	}}
	upper := s.e.writer.Published()
	for _, sm := range s.e.streams.List("") {
		t := s.e.tableByID(sm.TableID)
		if t == nil {
			continue
		}
		units := stream.Units(t)
		lower := make([]string, len(units))
		for i, u := range units {
			lower[i] = strings.ToLower(u)
		}
		latest, err := binlog.LatestTSOs(s.e.db, t, s.e.Codec(t), upper, lower)
		if err != nil {
			latest = map[string]uint64{}
		}
		for i, name := range units {
			u, ok := sm.Units[lower[i]]
			status, lag := "N/A", "0"
			last, hasData := latest[lower[i]]
			switch {
			case ok && !u.Initial:
				status, lag = strconv.FormatUint(u.Offset, 10), "0"
				if hasData && last > u.Offset {
					lag = strconv.FormatUint(last-u.Offset, 10)
				}
			case hasData:
				lag = "N/A"
			}
			consumed := int64(-1)
			if u.ConsumedAt > 0 {
				consumed = u.ConsumedAt
			}
			it.rows = append(it.rows, []types.Value{
				str(sm.DB), str(sm.Name), types.NewInt(types.BigInt, sm.ID), str(name),
				str(status), str(lag), types.NewInt(types.BigInt, consumed),
			})
		}
	}
	return it
}
