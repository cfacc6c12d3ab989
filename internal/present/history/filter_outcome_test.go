package history

import (
	"slices"
	"strings"
	"testing"
)

func TestParseOutcomesAliases(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []string
		wantErr string
	}{
		{in: "accepted,rejected", want: []string{"accepted", "rejected"}},
		{in: "not-accepted", want: []string{"exhausted_iterations"}},
		{in: "Not Accepted", want: []string{"exhausted_iterations"}},
		{in: "not_accepted", want: []string{"exhausted_iterations"}},
		{in: "exhausted", want: []string{"exhausted_iterations"}},
		{in: "exhausted_iterations", want: []string{"exhausted_iterations"}},
		{in: "failed", want: []string{"exhausted_iterations", "aborted", "failed"}},
		{in: "failed,aborted", want: []string{"exhausted_iterations", "aborted", "failed"}},
		{in: "canceled", want: []string{"cancelled"}},
		{in: "running", want: []string{OutcomeIncomplete}},
		{in: "acepted", wantErr: `unknown outcome "acepted" (did you mean "accepted"?)`},
		{in: "bogus", wantErr: `unknown outcome "bogus"`},
		{in: " , ", wantErr: "no outcome given"},
	} {
		got, err := ParseOutcomes(tc.in)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("ParseOutcomes(%q) error = %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseOutcomes(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// Every word the help lists is accepted.
func TestOutcomesListedParse(t *testing.T) {
	if _, err := ParseOutcomes(strings.Join(Outcomes, ",")); err != nil {
		t.Fatal(err)
	}
}
