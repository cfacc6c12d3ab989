package wordfreq

import (
	"reflect"
	"testing"
)

func TestTop(t *testing.T) {
	counts := map[string]int{"the": 5, "cat": 2, "bat": 2, "ant": 2, "dog": 1}
	for _, tc := range []struct {
		n    int
		want []string
	}{
		{0, []string{}},
		{1, []string{"the"}},
		{3, []string{"the", "ant", "bat"}},
		{5, []string{"the", "ant", "bat", "cat", "dog"}},
		{9, []string{"the", "ant", "bat", "cat", "dog"}},
	} {
		for i := 0; i < 20; i++ { // map order varies from run to run
			got, err := Top(counts, tc.n)
			if err != nil || got == nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Top(%d) = %v, %v; want %v", tc.n, got, err, tc.want)
			}
		}
	}
	if _, err := Top(counts, -1); err == nil {
		t.Error("Top(-1): no error")
	}
	if got, err := Top(map[string]int{}, 3); err != nil || len(got) != 0 {
		t.Errorf("Top of nothing = %v, %v", got, err)
	}
}
