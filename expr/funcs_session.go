package expr

import (
	"loadgw/types"
)

// Session is who runs a statement, for the session functions. The zero
// value is an anonymous session without a database.
type Session struct {
	// DB is the current database ("" for none).
	DB string
	// User is the login user and Host the client's address.
	User, Host string
	// ConnID is the MySQL connection id (0 over HTTP).
	ConnID int64
}

// The session functions, as Doris's FoldConstantRuleOnFE folds them:
//
//	database(), schema()  VARCHAR: the current database, "" without one
//	user(), session_user() VARCHAR: 'user'@'client address'
//	current_user()        VARCHAR: the account, 'user'@'%'
//	connection_id()       BIGINT
//	current_catalog()     VARCHAR: internal
func init() {
	str := func(f func(s *Session) string) *funcDef {
		return spec{min: 0, max: 0, ret: fixedType(tVarchar), volatile: true, fn: func(ctx *Context, _ []types.Value) (types.Value, error) {
			return types.NewString(types.Varchar, f(&ctx.Session)), nil
		}}.def()
	}
	register(str(func(s *Session) string { return s.DB }), "database", "schema")
	register(str(func(s *Session) string { return "'" + s.User + "'@'" + s.Host + "'" }), "user", "session_user")
	register(str(func(s *Session) string { return "'" + s.User + "'@'%'" }), "current_user")
	register(str(func(*Session) string { return "internal" }), "current_catalog")
	register(spec{min: 0, max: 0, ret: fixedType(tBigInt), volatile: true, fn: func(ctx *Context, _ []types.Value) (types.Value, error) {
		return types.NewInt(types.BigInt, ctx.Session.ConnID), nil
	}}.def(), "connection_id")
}
