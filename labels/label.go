package labels

import (
	"regexp"

	"github.com/google/uuid"
)

// LabelRegex is Doris's label pattern (FeNameFormat.LABEL_REGEX with
// Config.label_regex_length = 128), printed verbatim in format errors.
const LabelRegex = `^[\-_A-Za-z0-9:]{1,128}$`

var labelRE = regexp.MustCompile(LabelRegex)

// ValidateLabel checks label against LabelRegex. The error wraps
// ErrLabelFormat and reads as Doris's
// "Label format error. regex: <regex>, label: <label>".
func ValidateLabel(label string) error {
	if label != "" && labelRE.MatchString(label) {
		return nil
	}
	return newError(ErrLabelFormat, 0, "Label format error. regex: "+LabelRegex+", label: "+label)
}

// NewLabel returns the label Doris BE gives a load that sent none: a random
// UUID string, 36 lowercase characters with dashes.
func NewLabel() string { return uuid.NewString() }
