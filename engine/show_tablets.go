package engine

import (
	"fmt"
	"hash/fnv"
	"strconv"

	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/upsert"
)

// SHOW TABLETS FROM t. loadgw keeps each table in one key range and has no
// tablets; it models Doris's layout as SHOW PARTITIONS shows it: each
// partition (the table itself when it is not partitioned) has one tablet
// per bucket (one for BUCKETS AUTO), with one replica on the one backend.
// Rows are TabletsProcDir's, with its titles (TITLE_NAMES, non-cloud).

// tabletTitles are TabletsProcDir.TITLE_NAMES.
var tabletTitles = []string{"TabletId", "ReplicaId", "BackendId", "SchemaHash", "Version",
	"LstSuccessVersion", "LstFailedVersion", "LstFailedTime", "LocalDataSize", "RemoteDataSize", "RowCount",
	"State", "LstConsistencyCheckTime", "CheckVersion", "VisibleVersionCount", "VersionCount", "QueryHits",
	"PathHash", "Path", "MetaUrl", "CompactionStatus", "CooldownReplicaId", "CooldownMetaId"}

// textTabletCols are the columns ORDER BY compares as text; the others
// hold numbers.
var textTabletCols = map[int]bool{7: true, 11: true, 12: true, 18: true, 19: true, 20: true, 22: true}

// maxModelBuckets bounds the buckets of a partition whose tablet ids the
// model keeps apart (tablet id = partition id * 1000 + bucket + 1).
const maxModelBuckets = 1000

// tabletPartition is one partition of the tablet model.
type tabletPartition struct {
	id   int64
	name string
}

// tabletPartitions lists t's partitions with the ids SHOW PARTITIONS
// shows.
func tabletPartitions(t *catalog.Table) []tabletPartition {
	if t.Partition == nil {
		return []tabletPartition{{id: t.ID, name: t.Name}}
	}
	out := make([]tabletPartition, len(t.Partition.Parts))
	for i, p := range t.Partition.Parts {
		out[i] = tabletPartition{id: t.ID*1000 + int64(i) + 1, name: p.Name}
	}
	return out
}

// tabletBuckets is the number of tablets of each partition of t.
func tabletBuckets(t *catalog.Table) int {
	return min(max(t.Distribution.Buckets, 1), maxModelBuckets)
}

func (s *Session) showTablets(st *sql.ShowTablets) (*Result, error) {
	t, err := s.ddlTable(st.Table)
	if err != nil {
		return nil, err
	}
	order, err := showOrder(st.OrderBy, tabletTitles)
	if err != nil {
		return nil, err
	}
	parts := tabletPartitions(t)
	if st.Partitions != nil {
		parts, err = pickTabletPartitions(t, parts, st.Partitions)
		if err != nil {
			return nil, err
		}
	}
	commits, err := s.e.writer.Versions(t.ID)
	if err != nil {
		return nil, err
	}
	version := strconv.FormatInt(upsert.VersionOf(commits, ^uint64(0)), 10)
	var rows [][]string
	for _, p := range parts {
		for b := range tabletBuckets(t) {
			rows = append(rows, s.tabletRow(t, p.id*maxModelBuckets+int64(b)+1, version))
		}
	}
	// Doris sorts by TabletId and ReplicaId unless told otherwise.
	sortShowRows(rows, order, func(col int) bool { return !textTabletCols[col] })
	rows = applyShowLimit(rows, st.Limit)
	return showTextResult(tabletTitles, rows), nil
}

// pickTabletPartitions keeps the named partitions, in the order named.
func pickTabletPartitions(t *catalog.Table, parts []tabletPartition, names []string) ([]tabletPartition, error) {
	var out []tabletPartition
	for _, n := range names {
		i := partitionIndex(t, n)
		if t.Partition == nil || i < 0 {
			return nil, errorf("Unknown partition: %s", n)
		}
		out = append(out, parts[i])
	}
	return out, nil
}

// tabletRow is one tablet's row. loadgw keeps no per-tablet statistics:
// the sizes and row count are 0; the replica's path hash is 0, which
// names no disk, so its Path is empty as in Doris.
func (s *Session) tabletRow(t *catalog.Table, id int64, version string) []string {
	base := fmt.Sprintf("http://%s:%d", nodeHost, s.e.httpPort())
	return []string{
		strconv.FormatInt(id, 10), strconv.FormatInt(id*10+1, 10), strconv.Itoa(localBackendID),
		strconv.Itoa(int(tableSchemaHash(t))), version, version, "-1", nullString, "0", "0", "0", "NORMAL",
		nullString, "-1", version, version, "0", "0", "",
		fmt.Sprintf("%s/api/meta/header/%d", base, id), fmt.Sprintf("%s/api/compaction/show?tablet_id=%d", base, id),
		"-1", "",
	}
}

// tableSchemaHash is the schema hash loadgw shows for t's tablets (Doris
// draws it at random per index).
func tableSchemaHash(t *catalog.Table) int32 {
	h := fnv.New32a()
	fmt.Fprintf(h, "%d/%d", t.ID, t.SchemaVersion)
	return int32(h.Sum32() & 0x7fffffff)
}
