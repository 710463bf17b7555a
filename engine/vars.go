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

type sessionVar struct {
	def  string
	kind string // bool, int, string, zone
}

// sessionVars are the session variables loadgw knows, with Doris's defaults.
// Setting an unknown one fails as in Doris.
var sessionVars = map[string]sessionVar{
	"time_zone":                           {def: "", kind: "zone"},
	"show_hidden_columns":                 {def: "false", kind: "bool"},
	"enable_unique_key_partial_update":    {def: "false", kind: "bool"},
	"partial_update_new_key_behavior":     {def: "APPEND", kind: "string"},
	"enable_insert_strict":                {def: "true", kind: "bool"},
	"insert_max_filter_ratio":             {def: "1.0", kind: "string"},
	"sql_mode":                            {def: "ONLY_FULL_GROUP_BY", kind: "string"},
	"query_timeout":                       {def: "900", kind: "int"},
	"insert_timeout":                      {def: "14400", kind: "int"},
	"exec_mem_limit":                      {def: "2147483648", kind: "int"},
	"parallel_pipeline_task_num":          {def: "0", kind: "int"},
	"enable_nereids_planner":              {def: "true", kind: "bool"},
	"enable_fallback_to_original_planner": {def: "false", kind: "bool"},
	"skip_delete_bitmap":                  {def: "false", kind: "bool"},
	"require_sequence_in_insert":          {def: "true", kind: "bool"},
	"skip_delete_sign":                    {def: "false", kind: "bool"},
	"skip_storage_engine_merge":           {def: "false", kind: "bool"},
	"enable_profile":                      {def: "false", kind: "bool"},
	"group_commit":                        {def: "off_mode", kind: "string"},
	"character_set_client":                {def: "utf8mb4", kind: "string"},
	"character_set_results":               {def: "utf8mb4", kind: "string"},
	"autocommit":                          {def: "true", kind: "bool"},
	"max_allowed_packet":                  {def: "16777216", kind: "int"},
	"net_write_timeout":                   {def: "600", kind: "int"},
	"net_read_timeout":                    {def: "600", kind: "int"},
	"wait_timeout":                        {def: "28800", kind: "int"},
	"interactive_timeout":                 {def: "3600", kind: "int"},
	"tx_isolation":                        {def: "REPEATABLE-READ", kind: "string"},
	"transaction_isolation":               {def: "REPEATABLE-READ", kind: "string"},
	"lower_case_table_names":              {def: "0", kind: "int"},
	"batch_size":                          {def: "4064", kind: "int"},
	"enable_strict_cast":                  {def: "false", kind: "bool"},
	"div_precision_increment":             {def: "4", kind: "int"},
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
		name := strings.ToLower(it.Name)
		sv, ok := sessionVars[name]
		if !ok {
			return nil, errorf("Unknown system variable '%s'", it.Name)
		}
		val, err := s.constString(it.Value)
		if err != nil {
			return nil, err
		}
		switch sv.kind {
		case "bool":
			switch strings.ToLower(val) {
			case "true", "1", "on":
				val = "true"
			case "false", "0", "off":
				val = "false"
			default:
				return nil, errorf("Variable '%s' can't be set to the value of '%s'", name, val)
			}
		case "int":
			if _, err := strconv.ParseInt(val, 10, 64); err != nil {
				return nil, errorf("Incorrect argument type to variable '%s'", name)
			}
		case "zone":
			loc, err := LoadZone(val)
			if err != nil {
				return nil, errorf("%s", err.Error())
			}
			s.loc = loc
		}
		s.vars[name] = val
	}
	return &Result{}, nil
}

// constString evaluates a constant expression to its text.
func (s *Session) constString(e expr.Expr) (string, error) {
	if ref, ok := e.(*expr.ColumnRef); ok && ref.Table == "" {
		return ref.Name, nil // SET x = ON / SET sql_mode = ANSI
	}
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

func (s *Session) showVariables(st *sql.ShowVariables) (*Result, error) {
	names := make([]string, 0, len(sessionVars))
	for n := range sessionVars {
		if st.Like == nil || likeMatch(*st.Like, n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	res := &Result{ResultSet: true, Columns: []Column{{Name: "Variable_name", Type: varcharType}, {Name: "Value", Type: varcharType}}}
	for _, n := range names {
		res.Rows = append(res.Rows, []types.Value{str(n), str(s.Var(n))})
	}
	return res, nil
}

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
