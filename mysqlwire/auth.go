package mysqlwire

import (
	"crypto/subtle"
	"crypto/x509"
	"fmt"
	"net"
	"strings"

	"github.com/dolthub/vitess/go/mysql"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// auth checks mysql_native_password logins against the one account.
type auth struct {
	s *Server
}

var (
	_ mysql.AuthServer    = (*auth)(nil)
	_ mysql.HashStorage   = (*auth)(nil)
	_ mysql.UserValidator = (*auth)(nil)
)

func (a *auth) AuthMethods() []mysql.AuthMethod {
	return []mysql.AuthMethod{mysql.NewMysqlNativeAuthMethod(a, a)}
}

func (a *auth) DefaultAuthMethodDescription() mysql.AuthMethodDescription {
	return mysql.MysqlNativePassword
}

// HandleUser accepts every name here; UserEntryWithHash decides, so that a
// wrong user gets Doris's access denied text.
func (a *auth) HandleUser(user string, remoteAddr net.Addr) bool { return true }

// UserEntryWithHash checks the scrambled password of user.
func (a *auth) UserEntryWithHash(_ []*x509.Certificate, salt []byte, user string, authResponse []byte, remoteAddr net.Addr) (mysql.Getter, error) {
	name := accountName(user)
	ok := subtle.ConstantTimeCompare([]byte(name), []byte(a.s.opts.User)) == 1
	if a.s.opts.Password == "" {
		ok = ok && len(authResponse) == 0
	} else {
		want := mysql.ScramblePassword(salt, []byte(a.s.opts.Password))
		ok = ok && subtle.ConstantTimeCompare(authResponse, want) == 1
	}
	if !ok {
		return nil, accessDenied(name, remoteAddr, len(authResponse) > 0)
	}
	a.s.loggedIn(remoteAddr)
	return &userData{name: name}, nil
}

// accountName strips what Doris accepts around a user name: a workload
// group after '#' (user#HIGH), a compute cluster after '@'
// (user@cluster) and the legacy cluster prefix (default_cluster:user).
func accountName(user string) string {
	user, _, _ = strings.Cut(user, "#")
	user, _, _ = strings.Cut(user, "@")
	if i := strings.IndexByte(user, ':'); i >= 0 {
		user = user[i+1:]
	}
	return user
}

// accessDenied is Doris's ERR_ACCESS_DENIED_ERROR for user at the client's
// address (UserManager.checkPasswordInternal).
func accessDenied(user string, remote net.Addr, withPassword bool) error {
	host := remote.String()
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	using := "NO"
	if withPassword {
		using = "YES"
	}
	return mysql.NewSQLError(mysql.ERAccessDeniedError, mysql.SSAccessDeniedError,
		"%s", fmt.Sprintf("Access denied for user '%s@%s' (using password: %s)", user, host, using))
}

type userData struct{ name string }

func (u *userData) Get() *querypb.VTGateCallerID { return &querypb.VTGateCallerID{Username: u.name} }
