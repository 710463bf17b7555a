// Closures called with .call(...), and parameters with default values
// spanning lines, as test_json_load defines them. Every check passes.
suite("test_closures") {
    def tbl = "closures_t"
    def create = { name ->
        def r = sql """CREATE TABLE IF NOT EXISTS ${name} (id INT, code BIGINT SUM DEFAULT '0')
                       DISTRIBUTED BY RANDOM BUCKETS 1 PROPERTIES("replication_num" = "1")"""
        assertTrue(r[0][0] == 0)
    }
    def insert = { name, id, code = 7,
                   flag = false, neg = -1 ->
        assertEquals(false, flag)
        assertEquals(-1, neg)
        sql "INSERT INTO ${name} VALUES (${id}, ${code})"
    }
    def add(a, b = 10) { return a + b }
    create.call(tbl)
    insert.call(tbl, 1)
    insert(tbl, 2, 5)
    assertEquals(11, add(1))
    assertEquals(3, add.call(1, 2))
    qt_rows "select * from ${tbl} order by id"
    // each UUID.randomUUID() is new (suites make stream load labels with it)
    assertTrue(UUID.randomUUID().toString() != UUID.randomUUID().toString())
}
