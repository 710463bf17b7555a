package main

import (
	"bufio"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestTrimTrailing(t *testing.T) {
	in := "1|a|b|\n2||c|\n3|x\n"
	got, err := io.ReadAll(&trimTrailing{r: bufio.NewReaderSize(strings.NewReader(in), 16)})
	if err != nil || string(got) != "1|a|b\n2||c\n3|x\n" {
		t.Errorf("trimTrailing = %q, %v", got, err)
	}
	long := strings.Repeat("x", 40) + "|\n"
	if _, err := io.ReadAll(&trimTrailing{r: bufio.NewReaderSize(strings.NewReader(long), 16)}); err == nil {
		t.Error("a line longer than the buffer was copied")
	}
}

func TestParseQueries(t *testing.T) {
	got, err := parseQueries("2-4,9,22")
	if err != nil || !slices.Equal(got, []int{2, 3, 4, 9, 22}) {
		t.Errorf("parseQueries = %v, %v", got, err)
	}
	for _, bad := range []string{"0", "23", "4-2", "x", "1-", ""} {
		if _, err := parseQueries(bad); err == nil {
			t.Errorf("parseQueries(%q): no error", bad)
		}
	}
}
