package load

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestParams runs testdata/load/params: each case is a list of "name: value"
// headers; the output is the validated parameters that differ from the
// defaults, or the load error's Message.
func TestParams(t *testing.T) {
	datadriven.RunTest(t, "../testdata/load/params", func(t *testing.T, d *datadriven.TestData) string {
		h := http.Header{}
		for _, line := range strings.Split(d.Input, "\n") {
			if line = strings.TrimSpace(line); line == "" {
				continue
			}
			name, value, _ := strings.Cut(line, ":")
			h.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		}
		p, err := ParseParams(h)
		if err != nil {
			return AsError(err).Error() + "\n"
		}
		return describeParams(p)
	})
}

func describeParams(p *Params) string {
	def, _ := ParseParams(http.Header{})
	var b strings.Builder
	add := func(name string, v, dv any) {
		if fmt.Sprint(v) != fmt.Sprint(dv) {
			fmt.Fprintf(&b, "%s=%v\n", name, v)
		}
	}
	label := p.Label
	if p.GroupCommitActive() && regexp.MustCompile(`^group_commit_[0-9a-f]{16}_[0-9a-f]{16}$`).MatchString(label) {
		label = "group_commit_ID"
	}
	add("label", label, def.Label)
	add("group_commit_active", p.GroupCommitActive(), def.GroupCommitActive())
	add("format", p.Format, def.Format)
	add("header_lines", p.HeaderLines, def.HeaderLines)
	add("column_separator", p.ColumnSeparator, def.ColumnSeparator)
	add("line_delimiter", p.LineDelimiter, def.LineDelimiter)
	add("enclose", string(rune(p.Enclose)), string(rune(def.Enclose)))
	add("escape", string(rune(p.Escape)), string(rune(def.Escape)))
	add("trim_double_quotes", p.TrimDoubleQuotes, def.TrimDoubleQuotes)
	add("skip_lines", p.SkipLines, def.SkipLines)
	add("empty_field_as_null", p.EmptyFieldAsNull, def.EmptyFieldAsNull)
	add("columns", p.Columns, def.Columns)
	add("where", p.Where, def.Where)
	add("max_filter_ratio", p.MaxFilterRatio, def.MaxFilterRatio)
	add("strict_mode", p.StrictMode, def.StrictMode)
	add("timezone", p.TimeZone, def.TimeZone)
	add("timeout", p.Timeout, def.Timeout)
	add("exec_mem_limit", p.ExecMemLimit, def.ExecMemLimit)
	add("partitions", p.Partitions, def.Partitions)
	add("temporary_partitions", p.TemporaryPartitions, def.TemporaryPartitions)
	add("merge_type", p.MergeType, def.MergeType)
	add("delete", p.Delete, def.Delete)
	add("sequence_col", p.SequenceCol, def.SequenceCol)
	add("hidden_columns", p.HiddenColumns, def.HiddenColumns)
	add("read_json_by_line", p.ReadJSONByLine, def.ReadJSONByLine)
	add("strip_outer_array", p.StripOuterArray, def.StripOuterArray)
	add("json_root", p.JSONRoot, def.JSONRoot)
	add("jsonpaths", p.JSONPaths, def.JSONPaths)
	add("fuzzy_parse", p.FuzzyParse, def.FuzzyParse)
	add("num_as_string", p.NumAsString, def.NumAsString)
	add("two_phase_commit", p.TwoPhaseCommit, def.TwoPhaseCommit)
	add("compress_type", p.CompressType, def.CompressType)
	add("group_commit", p.GroupCommit, def.GroupCommit)
	add("comment", p.Comment, def.Comment)
	add("update_mode", p.UpdateMode, def.UpdateMode)
	add("new_key_behavior", p.NewKeyBehavior, def.NewKeyBehavior)
	if b.Len() == 0 {
		return "defaults\n"
	}
	return b.String()
}
