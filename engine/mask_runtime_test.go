package engine

import "regexp"

var (
	memErrQueryID = regexp.MustCompile(`Query#Id=[0-9a-f]+-[0-9a-f]+`)
	memErrProcess = regexp.MustCompile(`process memory used [0-9.]+ [KMG]?B`)
)

// maskRuntime masks what an error text carries of the running process:
// the query id and the process memory of a memory limit error.
func maskRuntime(s string) string {
	s = memErrQueryID.ReplaceAllString(s, "Query#Id=<id>")
	return memErrProcess.ReplaceAllString(s, "process memory used <n>")
}
