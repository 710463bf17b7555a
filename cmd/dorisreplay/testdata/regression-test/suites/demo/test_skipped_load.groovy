// A stream load the interpreter cannot run (its file comes from a helper
// it does not model): a query on that table whose rows differ is skipped,
// not failed; a query on it that matches still passes; a query on another
// table still fails. 1 passes, 1 fails, 2 are skipped (the load, qt_rows).
suite("test_skipped_load") {
    sql "CREATE TABLE sk_t (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES (\"replication_num\" = \"1\")"
    sql "CREATE TABLE sk_other (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES (\"replication_num\" = \"1\")"
    streamLoad {
        table "sk_t"
        file """${getUnmodelledUrl()}/data.csv"""
    }
    qt_rows "select * from sk_t order by k"
    qt_count "select count(*) from sk_t"
    qt_other "select count(*) from sk_other"
}
