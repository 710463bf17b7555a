package engine

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// varKind is how a variable's value is checked and shown.
type varKind uint8

const (
	varBool   varKind = iota // true/false; SET takes ON, OFF, 1, 0 too
	varInt                   // a 32-bit integer (a Java int)
	varLong                  // a 64-bit integer (a Java long)
	varDouble                // a floating-point number, shown as Java shows it
	varString                // any text
	varZone                  // a time zone name, applied to the session
)

// varFlags are Doris's VariableMgr flags of a variable.
type varFlags uint8

const (
	varGlobal      varFlags = 1 << iota // set only with SET GLOBAL
	varSessionOnly                      // never with SET GLOBAL
	varReadOnly                         // never set
	varInvisible                        // settable, not in SHOW VARIABLES
	varRemoved                          // settable, not in SHOW VARIABLES
)

// varDef is one variable of dorisVars.
type varDef struct {
	def    string // the value Doris shows by default; "" for zones: the engine's
	kind   varKind
	flags  varFlags
	prefix string // SHOW VARIABLES shows prefix+name ("experimental_")
}

// lookupVar finds a variable by name, with or without its display prefix,
// as Doris's VariableMgr.getVarContext does.
func lookupVar(name string) (string, varDef, bool) {
	name = strings.ToLower(name)
	if d, ok := dorisVars[name]; ok {
		return name, d, true
	}
	for _, p := range []string{"experimental_", "deprecated_"} {
		if n, ok := strings.CutPrefix(name, p); ok {
			if d, ok := dorisVars[n]; ok {
				return n, d, true
			}
		}
	}
	return name, varDef{}, false
}

var offsetZone = regexp.MustCompile(`^([+-])(\d{1,2}):(\d{2})$`)

// LoadZone resolves a Doris time zone name: a region name, UTC/GMT, CST
// (Asia/Shanghai, as Doris maps it), or a fixed offset "+08:00".
func LoadZone(name string) (*time.Location, error) {
	n := strings.TrimSpace(name)
	if m := offsetZone.FindStringSubmatch(n); m != nil {
		h, _ := strconv.Atoi(m[2])
		mi, _ := strconv.Atoi(m[3])
		if h > 14 || mi > 59 || (h == 14 && mi > 0) {
			return nil, fmt.Errorf("Unknown or incorrect time zone: '%s'", name)
		}
		off := h*3600 + mi*60
		if m[1] == "-" {
			if h > 12 || (h == 12 && mi > 0) {
				return nil, fmt.Errorf("Unknown or incorrect time zone: '%s'", name)
			}
			off = -off
		}
		return time.FixedZone(n, off), nil
	}
	switch strings.ToUpper(n) {
	case "UTC", "GMT", "Z":
		return time.UTC, nil
	case "CST":
		n = "Asia/Shanghai"
	}
	if n == "" || strings.EqualFold(n, "local") {
		return nil, fmt.Errorf("Unknown or incorrect time zone: '%s'", name)
	}
	loc, err := time.LoadLocation(n)
	if err != nil {
		return nil, fmt.Errorf("Unknown or incorrect time zone: '%s'", name)
	}
	return loc, nil
}

func (s *Session) set(st *sql.SetVar) (*Result, error) {
	for _, it := range st.Items {
		if it.UserVar {
			continue
		}
		if err := s.setItem(it); err != nil {
			return nil, err
		}
	}
	return &Result{}, nil
}

// setItem runs one assignment with Doris's checks (VariableMgr.checkUpdate
// and setValue). SET GLOBAL also sets the session's value.
func (s *Session) setItem(it sql.SetItem) error {
	name, d, ok := lookupVar(it.Name)
	if !ok {
		return errorf("Unknown system variable '%s',the similar variables are %s", it.Name, similarVars(it.Name))
	}
	global := it.Scope == "GLOBAL"
	switch {
	case d.flags&varReadOnly != 0:
		return errorf("Variable '%s' is a read only variable", it.Name)
	case global && d.flags&varSessionOnly != 0:
		return errorf("Variable '%s' is a SESSION variable and can't be used with SET GLOBAL", it.Name)
	case !global && d.flags&varGlobal != 0:
		return errorf("Variable '%s' is a GLOBAL variable and should be set with SET GLOBAL", it.Name)
	}
	val, err := s.varValue(it, name, d)
	if err != nil {
		return err
	}
	if err := checkTimeoutVar(name, val); err != nil {
		return err
	}
	if err := checkNewKeyBehaviorVar(name, val); err != nil {
		return err
	}
	if global {
		s.e.setGlobalVar(name, val)
	}
	s.vars[name] = val
	s.varsGen++
	return nil
}

// varValue evaluates and checks the value of one assignment; a zone is
// applied to the session.
func (s *Session) varValue(it sql.SetItem, name string, d varDef) (string, error) {
	if _, ok := it.Value.(*expr.Default); ok {
		return s.e.defaultVar(name, d), nil
	}
	val, err := s.constString(it.Value)
	if err != nil {
		return "", err
	}
	switch d.kind {
	case varBool:
		switch strings.ToLower(val) {
		case "true", "1", "on":
			return "true", nil
		case "false", "0", "off":
			return "false", nil
		}
		return "", errorf("Variable '%s' can't be set to the value of '%s'", name, val)
	case varInt, varLong:
		bits := 64
		if d.kind == varInt {
			bits = 32
		}
		n, err := strconv.ParseInt(val, 10, bits)
		if err != nil {
			return "", errorf("Incorrect argument type to variable '%s'", name)
		}
		return strconv.FormatInt(n, 10), nil
	case varDouble:
		f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil {
			return "", errorf("Incorrect argument type to variable '%s'", name)
		}
		return types.JavaDouble(f, 64), nil
	case varZone:
		loc, err := LoadZone(val)
		if err != nil {
			return "", errorf("%s", err.Error())
		}
		s.loc = loc
	}
	return val, nil
}

// constString evaluates a constant expression to its text.
func (s *Session) constString(e expr.Expr) (string, error) {
	if ref, ok := e.(*expr.ColumnRef); ok && ref.Table == "" {
		return ref.Name, nil // SET x = ON / SET sql_mode = ANSI
	}
	s.resolveVarsIn(e)
	c, err := expr.Bind(e, &expr.Scope{})
	if err != nil {
		return "", err
	}
	v, err := c.Eval(nil, s.evalContext())
	if err != nil {
		return "", err
	}
	if v.IsNull() {
		return "", nil
	}
	if v.Kind == types.Boolean {
		if v.I != 0 {
			return "true", nil
		}
		return "false", nil
	}
	return types.Format(v, s.loc), nil
}

// showVariables lists the visible variables as Doris's VariableMgr.dump
// does: name, value, default and whether it changed, changed ones first,
// each group by name.
func (s *Session) showVariables(st *sql.ShowVariables) (*Result, error) {
	var changed, same [][]types.Value
	for n, d := range dorisVars {
		show := d.prefix + n
		if d.flags&(varInvisible|varRemoved) != 0 || (st.Like != nil && !likeMatch(*st.Like, show)) {
			continue
		}
		val, def := s.Var(n), s.e.zoneDefault(d)
		if st.Scope == "GLOBAL" {
			val = s.e.defaultVar(n, d)
		}
		if val == def {
			same = append(same, []types.Value{str(show), str(val), str(def), str("0")})
		} else {
			changed = append(changed, []types.Value{str(show), str(val), str(def), str("1")})
		}
	}
	byName := func(rows [][]types.Value) {
		sort.Slice(rows, func(i, j int) bool { return rows[i][0].S < rows[j][0].S })
	}
	byName(changed)
	byName(same)
	cols := []Column{{Name: "Variable_name", Type: showVarType}, {Name: "Value", Type: showVarType}, {Name: "Default_Value", Type: showVarType}, {Name: "Changed", Type: showVarType}}
	rows, err := s.filterRows(cols, append(changed, same...), st.Where)
	if err != nil {
		return nil, err
	}
	return &Result{ResultSet: true, Columns: cols, Rows: rows}, nil
}

// showVarType is the type of SHOW VARIABLES' columns in Doris.
var showVarType = types.Type{Kind: types.Varchar, Len: 20}

var varcharType = types.Type{Kind: types.Varchar, Len: types.MaxVarcharLen}

func str(s string) types.Value { return types.NewString(types.Varchar, s) }

// likeMatch matches a SHOW ... LIKE pattern (case-insensitive, % and _).
func likeMatch(pattern, s string) bool {
	var b strings.Builder
	b.WriteString("(?is)^")
	for _, r := range pattern {
		switch r {
		case '%':
			b.WriteString(".*")
		case '_':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(s)
}
