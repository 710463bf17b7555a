// connect { } opens a new session, as the framework's new JDBC
// connection: a variable set inside it ends with it. 3 checks pass.
suite("test_connect") {
    sql "SET show_hidden_columns = false"
    connect("root", "", "jdbc:mysql://127.0.0.1:9030") {
        sql "SET show_hidden_columns = true"
        def inside = sql "SELECT @@show_hidden_columns"
        assertEquals("true", inside[0][0].toString())
    }
    connect("root", "", "jdbc:mysql://127.0.0.1:9030") {
        def fresh = sql "SELECT @@show_hidden_columns"
        assertEquals("false", fresh[0][0].toString())
    }
    def outer = sql "SELECT @@show_hidden_columns"
    assertEquals("false", outer[0][0].toString())
}
