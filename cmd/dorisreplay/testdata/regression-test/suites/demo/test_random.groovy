// Settings drawn at random, as variant_p0/agg and predefine/load draw a
// VARIANT's subcolumn limit: the draws are fixed (0), and an int
// declaration coerces Math.floor's double. Every check passes.
suite("test_random") {
    int n = Math.floor(Math.random() * 10)
    assertEquals(0, n)
    assertEquals("0", "${n}")
    def count = new Random().nextInt(10)
    assertEquals(0, count)
    assertEquals(5, Math.max(2, 5))
    // Java's \uXXXX escape (variant_p0/desc writes a key "\\\u4E2C")
    assertEquals("丬文", "\u4E2C\u6587")
    sql """CREATE TABLE random_t (k BIGINT, v variant<properties("variant_max_subcolumns_count" = "${n}")>)
           DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES("replication_num" = "1")"""
    sql """INSERT INTO random_t VALUES (1, '{"a": 1}')"""
    qt_rows "select * from random_t order by k"
    // a closure parameter whose default is an expression in parentheses
    def create_table = { table_name, key_type="DUPLICATE", buckets=(new Random().nextInt(15) + 1).toString() ->
        sql """CREATE TABLE ${table_name} (k BIGINT, v variant) ${key_type} KEY(k)
               DISTRIBUTED BY HASH(k) BUCKETS ${buckets} PROPERTIES("replication_num" = "1")"""
    }
    create_table "random_u"
    sql """INSERT INTO random_u VALUES (2, '{"b": 2}')"""
    qt_rows2 "select * from random_u order by k"
}
