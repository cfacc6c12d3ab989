package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDoctorChecksEveryBinary: doctor's list of programs is the
// Makefile's BINARIES, so a program added to the build is checked too.
func TestDoctorChecksEveryBinary(t *testing.T) {
	data, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^BINARIES\s*:=\s*(.+)$`).FindSubmatch(data)
	if m == nil {
		t.Fatal("the Makefile has no BINARIES line")
	}
	want := strings.Fields(string(m[1]))
	var got []string
	for _, p := range programs {
		got = append(got, p.name)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("doctor checks %v, the Makefile builds %v", got, want)
	}
}
