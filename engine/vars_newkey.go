package engine

import "strings"

// checkNewKeyBehaviorVar is Doris's checker of the session variable
// partial_update_new_key_behavior (SessionVariable
// .checkPartialUpdateNewKeyBehavior): APPEND or ERROR, in any case.
func checkNewKeyBehaviorVar(name, val string) error {
	if name != "partial_update_new_key_behavior" || strings.EqualFold(val, "APPEND") || strings.EqualFold(val, "ERROR") {
		return nil
	}
	return errorf("partial_update_new_key_behavior should be one of {'APPEND', 'ERROR'}, but found %s", val)
}
