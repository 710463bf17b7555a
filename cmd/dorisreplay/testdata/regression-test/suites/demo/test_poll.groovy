// Expressions continued on the next line inside parentheses, and a while
// loop polling on something not modelled (an S3 load's state): 3 checks
// pass, the poll's 1 check is skipped once (not once per round).
suite("test_poll") {
    def a = 1
    def b = 2
    assertEquals(3, a
                 + b)
    assertEquals(a + b, (a
        + b))
    assertTrue(a < b &&
               b > a)
    def tries = 60
    while (tries > 0) {
        def state = getUnmodelledLoadState()
        if (state == "FINISHED") {
            assertEquals(4, a)
            break
        }
        tries -= 1
    }
}
