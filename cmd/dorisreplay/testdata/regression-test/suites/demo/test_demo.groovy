// A tiny suite in the shape of Doris's regression suites, for the
// interpreter's test: 7 checks pass, 2 fail, 2 are skipped.
suite("test_demo") {
    def tableName = "demo_tbl"
    sql """ DROP TABLE IF EXISTS ${tableName} """
    sql """
        CREATE TABLE ${tableName} (k INT, v VARCHAR(10), d DOUBLE)
        UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
        PROPERTIES ("replication_num" = "1")
    """
    def load = { String file, int rows ->
        streamLoad {
            table tableName
            set 'column_separator', ','
            file file
            check { result, exception, startTime, endTime ->
                if (exception != null) {
                    throw exception
                }
                def json = parseJson(result)
                assertEquals("success", json.Status.toLowerCase())
                assertEquals(rows, json.NumberTotalRows)
            }
        }
    }
    load("d.csv", 3)          // passes
    load("d.csv", 4)          // fails: 3 rows
    qt_all "select * from ${tableName} order by k"      // passes
    order_qt_all "select v from ${tableName}"           // passes (sorted)
    qt_wrong "select k from ${tableName} order by k"    // fails: the .out block differs
    for (def i : [1, 2]) {
        qt_loop "select v from ${tableName} where k = ${i}"  // passes twice
    }
    def res = sql "select count(*) from ${tableName}"
    assertEquals(3, res[0][0])                          // passes
    test {
        sql "select * from no_such_table"
        exception "does not exist"
    }                                                   // passes
    if (isSomethingUnmodelled()) {
        qt_never "select 1"                             // skipped
    }
    assertTrue(getUnmodelledHelper())                   // skipped
}
