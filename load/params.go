package load

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Format is the body format of a load.
type Format string

// The formats loadgw reads.
const (
	FormatCSV                  Format = "csv"
	FormatCSVWithNames         Format = "csv_with_names"
	FormatCSVWithNamesAndTypes Format = "csv_with_names_and_types"
	FormatJSON                 Format = "json"
	FormatParquet              Format = "parquet"
	FormatHiveText             Format = "hive_text"
)

// knownFormats are formats Doris knows that loadgw does not read.
var knownFormats = map[string]bool{"orc": true, "arrow": true, "wal": true}

// Update modes of unique_key_update_mode.
const (
	ModeUpsert        = "UPSERT"
	ModeFixedColumns  = "UPDATE_FIXED_COLUMNS"
	ModeFlexible      = "UPDATE_FLEXIBLE_COLUMNS"
	defaultTimeoutSec = 259200 // stream_load_default_timeout_second
	minTimeoutSec     = 1      // min_load_timeout_second
	maxTimeoutSec     = 259200 // max_stream_load_timeout_second
)

// Params are the validated headers of one stream load, with Doris's
// defaults.
type Params struct {
	Label string // "" when the client sent none

	Format      Format
	HeaderLines int // 1 for csv_with_names, 2 for csv_with_names_and_types

	ColumnSeparator  string // raw header value; "" means the default \t
	LineDelimiter    string // raw header value; "" means the default \n
	Enclose          byte
	Escape           byte
	TrimDoubleQuotes bool
	SkipLines        int
	EmptyFieldAsNull bool

	Columns        string // raw `columns` header
	Where          string
	MaxFilterRatio float64
	StrictMode     bool
	TimeZone       string // "" means the session default
	Timeout        time.Duration
	ExecMemLimit   int64

	Partitions          []string
	TemporaryPartitions []string

	MergeType string // APPEND, DELETE or MERGE
	// MergeTypeSent tells that the merge_type header was sent (any value):
	// flexible partial updates refuse it.
	MergeTypeSent bool
	Delete        string
	SequenceCol   string
	HiddenColumns []string

	ReadJSONByLine  bool
	StripOuterArray bool
	JSONRoot        string
	JSONPaths       string
	FuzzyParse      bool
	NumAsString     bool

	TwoPhaseCommit bool
	CompressType   string // lower case; "" plain
	GroupCommit    string // the mode sent, lower case, or ""
	Comment        string
	// groupCommitActive: the load runs as a group commit (GroupCommitOf).
	groupCommitActive bool

	// UpdateMode is UPSERT, UPDATE_FIXED_COLUMNS or UPDATE_FLEXIBLE_COLUMNS.
	UpdateMode     string
	NewKeyBehavior string // APPEND or ERROR
}

// header reads a header case-insensitively (net/http canonicalises names,
// and Go's Header.Get does too, but Doris header names contain dots and
// underscores that clients spell in any case).
// A load reads some 35 headers, most of them absent: the lookup of a name
// allocates nothing (its canonical form is computed once per name) and the
// case-insensitive scan compares only names of its length (header names are
// ASCII; Doris's BE compares them ASCII case-insensitively).
func header(h http.Header, name string) (string, bool) {
	if v, ok := h[canonicalName(name)]; ok && len(v) > 0 {
		return v[0], true
	}
	for k, v := range h {
		if len(k) == len(name) && strings.EqualFold(k, name) && len(v) > 0 {
			return v[0], true
		}
	}
	return "", false
}

// canonicalNames caches http.CanonicalHeaderKey of the header names this
// package and its callers look up (names written in the code, so few).
var canonicalNames sync.Map // string → string

func canonicalName(name string) string {
	if c, ok := canonicalNames.Load(name); ok {
		return c.(string)
	}
	c := http.CanonicalHeaderKey(name)
	canonicalNames.Store(name, c)
	return c
}

// Header returns a header by name, case-insensitively.
func Header(h http.Header, name string) (string, bool) { return header(h, name) }

func isTrue(v string) bool { return strings.EqualFold(strings.TrimSpace(v), "true") }

// ParseParams validates the stream load headers in the order Doris's BE
// reads them and returns the first error in Doris's words: first those Doris
// checks before it begins the transaction, then (ParsePut) the rest.
//
// It decides the group_commit header first (GroupCommitOf) for a body of
// the Content-Length header's size, or of unknown size without it.
func ParseParams(h http.Header) (*Params, error) {
	size := int64(-1)
	if v, ok := header(h, "Content-Length"); ok {
		size, _ = strconv.ParseInt(v, 10, 64)
	}
	gc, err := GroupCommitOf(h, false, size)
	if err != nil {
		return nil, err
	}
	p, err := ParseBegin(h)
	if err != nil {
		return nil, err
	}
	p.SetGroupCommit(gc)
	return p, p.ParsePut(h)
}

// ParseBegin validates what Doris checks before it begins the load's
// transaction; errors here answer with TxnId -1.
func ParseBegin(h http.Header) (*Params, error) {
	get := func(name string) string { v, _ := header(h, name); return v }
	has := func(name string) bool { _, ok := header(h, name); return ok }
	p := &Params{
		Format:         FormatCSV,
		Timeout:        defaultTimeoutSec * time.Second,
		ExecMemLimit:   2 << 30,
		MergeType:      "APPEND",
		UpdateMode:     ModeUpsert,
		NewKeyBehavior: "APPEND",
	}
	p.Label = strings.TrimSpace(get("label"))
	switch f := strings.ToLower(strings.TrimSpace(get("format"))); f {
	case "", "csv":
	case "csv_with_names":
		p.Format, p.HeaderLines = FormatCSVWithNames, 1
	case "csv_with_names_and_types":
		p.Format, p.HeaderLines = FormatCSVWithNamesAndTypes, 2
	case "json":
		p.Format = FormatJSON
	case "parquet":
		p.Format = FormatParquet
	case "hive_text":
		p.Format = FormatHiveText
	default:
		if knownFormats[f] {
			return nil, &Error{Code: CodeInvalidArgument, Msg: "format " + f + " is not supported by loadgw; use csv, csv_with_names, csv_with_names_and_types, json, parquet or hive_text", Client: true}
		}
		return nil, &Error{Code: CodeE1101, Msg: "unknown data format, format=" + get("format"), Client: true}
	}
	if v := get("timeout"); v != "" {
		n, err := safeStoi(v, "timeout")
		if err != nil {
			return nil, err
		}
		if n < minTimeoutSec {
			return nil, analysisError("Invalid timeout: %d. Timeout should be higher than Config.min_load_timeout_second: %d", n, minTimeoutSec)
		}
		if n > maxTimeoutSec {
			return nil, analysisError("Invalid timeout: %d. Timeout should be lower than Config.max_stream_load_timeout_second: %d", n, maxTimeoutSec)
		}
		p.Timeout = time.Duration(n) * time.Second
	}
	p.Comment = get("comment")
	p.TwoPhaseCommit = get("two_phase_commit") == "true"
	p.CompressType = strings.ToLower(strings.TrimSpace(get("compress_type")))
	if err := p.parseCSV(get, has); err != nil {
		return nil, err
	}
	if err := p.parseJSON(get, has); err != nil {
		return nil, err
	}
	return p, nil
}

// ParsePut validates what Doris checks after the transaction began (in
// _process_put and FE planning); errors here roll the transaction back.
func (p *Params) ParsePut(h http.Header) error {
	get := func(name string) string { v, _ := header(h, name); return v }
	has := func(name string) bool { _, ok := header(h, name); return ok }
	return p.parsePut(get, has)
}

func (p *Params) parseCSV(get func(string) string, has func(string) bool) error {
	p.ColumnSeparator = get("column_separator")
	p.LineDelimiter = get("line_delimiter")
	if v, ok := nonEmpty(get, has, "enclose"); ok {
		if len(v) != 1 {
			return invalidArg("enclose must be single-char, actually is %s", v)
		}
		p.Enclose = v[0]
	}
	if v, ok := nonEmpty(get, has, "escape"); ok {
		if len(v) != 1 {
			return invalidArg("escape must be single-char, actually is %s", v)
		}
		p.Escape = v[0]
	}
	p.TrimDoubleQuotes = isTrue(get("trim_double_quotes"))
	p.EmptyFieldAsNull = isTrue(get("empty_field_as_null"))
	if v := get("skip_lines"); v != "" {
		n, err := safeStoi(v, "skip_lines")
		if err != nil {
			return err
		}
		if n < 0 {
			return invalidArg("Invalid 'skip_lines': %d", n)
		}
		p.SkipLines = n
	}
	return nil
}

func nonEmpty(get func(string) string, has func(string) bool, name string) (string, bool) {
	if !has(name) {
		return "", false
	}
	v := get(name)
	return v, v != ""
}

func (p *Params) parseJSON(get func(string) string, has func(string) bool) error {
	byLine, stripOuter := has("read_json_by_line"), has("strip_outer_array")
	p.ReadJSONByLine = isTrue(get("read_json_by_line")) || (!byLine && !stripOuter)
	p.StripOuterArray = isTrue(get("strip_outer_array"))
	p.JSONRoot = get("json_root")
	p.JSONPaths = get("jsonpaths")
	p.FuzzyParse = isTrue(get("fuzzy_parse"))
	p.NumAsString = isTrue(get("num_as_string"))
	return nil
}

// parsePut validates what Doris's BE checks in _process_put and the FE in
// planning: these errors come back after the transaction began.
func (p *Params) parsePut(get func(string) string, has func(string) bool) error {
	p.Columns = get("columns")
	p.Where = get("where")
	if v := get("max_filter_ratio"); v != "" {
		p.MaxFilterRatio = strtod(v)
	}
	if has("strict_mode") {
		switch strings.ToLower(strings.TrimSpace(get("strict_mode"))) {
		case "true":
			p.StrictMode = true
		case "false":
		default:
			return invalidArg("Invalid strict mode format. Must be bool type")
		}
	}
	p.TimeZone = get("timezone")
	if p.TimeZone == "" {
		p.TimeZone = get("time_zone")
	}
	if v := get("exec_mem_limit"); v != "" {
		n, ok := stoll(v)
		if !ok {
			// Doris: "Invalid mem limit format, {}" with std::stoll's
			// exception text, which is "stoll".
			return invalidArg("Invalid mem limit format, stoll")
		}
		p.ExecMemLimit = n
	}
	p.Partitions = splitList(get("partitions"))
	p.TemporaryPartitions = splitList(get("temporary_partitions"))
	if len(p.Partitions) > 0 && len(p.TemporaryPartitions) > 0 {
		return invalidArg("Can not specify both partitions and temporary partitions")
	}
	p.MergeTypeSent = has("merge_type")
	if v := get("send_batch_parallelism"); v != "" {
		// Doris only passes it on to the FE; loadgw has no sink to spread.
		if _, err := safeStoi(v, "send_batch_parallelism"); err != nil {
			return err
		}
	}
	if v := get("merge_type"); v != "" {
		switch mt := strings.ToUpper(strings.TrimSpace(v)); mt {
		case "APPEND", "DELETE", "MERGE":
			p.MergeType = mt
		default:
			return invalidArg("Invalid merge type %s", v)
		}
	}
	p.Delete = get("delete")
	p.SequenceCol = get("function_column.sequence_col")
	p.HiddenColumns = splitList(get("hidden_columns"))
	if p.isTrue(get, "partial_columns") {
		p.UpdateMode = ModeFixedColumns
	}
	if v, ok := nonEmpty(get, has, "unique_key_update_mode"); ok {
		switch m := strings.ToUpper(strings.TrimSpace(v)); m {
		case ModeUpsert, ModeFixedColumns, ModeFlexible:
			p.UpdateMode = m
		default:
			return invalidArg("Invalid unique_key_partial_mode %s, must be one of 'UPSERT', 'UPDATE_FIXED_COLUMNS' or 'UPDATE_FLEXIBLE_COLUMNS'", v)
		}
	}
	if v, ok := nonEmpty(get, has, "partial_update_new_key_behavior"); ok {
		switch b := strings.ToUpper(strings.TrimSpace(v)); b {
		case "APPEND", "ERROR":
			p.NewKeyBehavior = b
		default:
			return invalidArg("Invalid partial_update_new_key_behavior %s, must be one of {'APPEND', 'ERROR'}", b)
		}
	}
	if p.MergeType == "MERGE" && strings.TrimSpace(p.Delete) == "" {
		return analysisError("Excepted DELETE ON clause when merge type is MERGE.")
	}
	if p.MergeType != "MERGE" && strings.TrimSpace(p.Delete) != "" {
		return analysisError("Not support DELETE ON clause when merge type is not MERGE.")
	}
	return nil
}

func (p *Params) isTrue(get func(string) string, name string) bool { return isTrue(get(name)) }

// CheckPartial applies Doris's checks of a partial update's headers, in
// Doris's order (BE stream_load.cpp for flexible updates).
func (p *Params) CheckPartial() error {
	if p.UpdateMode != ModeFlexible {
		return nil
	}
	refuse := func(what string) error {
		return invalidArg("Don't support flexible partial update when '%s' is specified", what)
	}
	switch {
	case p.Format != FormatJSON:
		return invalidArg("flexible partial update only support json format as input file currently")
	case p.FuzzyParse:
		return invalidArg("Don't support flexible partial update when 'fuzzy_parse' is enabled")
	case strings.TrimSpace(p.Columns) != "":
		return refuse("columns")
	case strings.TrimSpace(p.JSONPaths) != "":
		return refuse("jsonpaths")
	case len(p.HiddenColumns) > 0:
		return refuse("hidden_columns")
	case p.SequenceCol != "":
		return refuse("function_column.sequence_col")
	case p.MergeTypeSent:
		return refuse("merge_type")
	case strings.TrimSpace(p.Where) != "":
		return refuse("where")
	case strings.TrimSpace(p.Delete) != "":
		return refuse("delete")
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// strtod parses the longest numeric prefix of s as C's strtod does, 0 when
// there is none.
func strtod(s string) float64 {
	s = strings.TrimSpace(s)
	for end := len(s); end > 0; end-- {
		if f, err := strconv.ParseFloat(s[:end], 64); err == nil {
			return f
		}
	}
	return 0
}

// stoll reads a number as C++ std::stoll does (base 10), which Doris uses on
// exec_mem_limit: leading white space, an optional sign, then the longest run
// of digits; anything after the digits is ignored. ok is false when there are
// no digits (std::invalid_argument) or the number does not fit in an int64
// (std::out_of_range, which Doris leaves uncaught; loadgw reports it as the
// invalid argument).
func stoll(s string) (n int64, ok bool) {
	digits, ok := stoPrefix(s)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	return n, err == nil
}

// stoPrefix is the part of s that C++'s std::stoi/stoll read: after leading
// white space, an optional sign and the longest run of digits. ok is false
// when there are no digits.
func stoPrefix(s string) (string, bool) {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	end := 0
	if end < len(s) && (s[end] == '+' || s[end] == '-') {
		end++
	}
	digits := end
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	return s[:end], end > digits
}

// safeStoi reads an integer header as Doris's safe_stoi (std::stoi) does:
// leading blanks, a sign and the digits that follow, anything after them
// ignored; no digits is an invalid format, a value outside int32 out of
// range, each with Doris's text.
func safeStoi(v, name string) (int, error) {
	digits, ok := stoPrefix(v)
	if !ok {
		return 0, invalidArg("Invalid format of '%s': '%s', stoi", name, v)
	}
	n, err := strconv.ParseInt(digits, 10, 32)
	if err != nil {
		return 0, invalidArg("'%s' value out of range: '%s', stoi", name, v)
	}
	return int(n), nil
}
