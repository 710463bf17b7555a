package engine

import "strconv"

// checkGroupCommitCreate checks group_commit_interval_ms or
// group_commit_data_bytes in CREATE TABLE as Doris's
// PropertyAnalyzer.analyzeGroupCommitIntervalMs / DataBytes do: a Java int,
// any sign. Doris words both failures with the interval's name.
func checkGroupCommitCreate(key, val string) error {
	if _, err := strconv.ParseInt(val, 10, 32); err != nil {
		return errorf("parse group_commit_interval_ms format error")
	}
	return nil
}

// checkGroupCommitAlter checks the properties in ALTER TABLE SET as Doris's
// ModifyTablePropertiesOp does: a Java long, not below 0.
func checkGroupCommitAlter(key, val string, _ propDef) error {
	n, err := strconv.ParseInt(val, 10, 64)
	if err != nil {
		return errorf("Invalid %s format: %s", key, val)
	}
	if n < 0 {
		return errorf("%s can not be less than 0:%s", key, val)
	}
	return nil
}
