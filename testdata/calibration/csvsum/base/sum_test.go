package csvsum

import (
	"strings"
	"testing"
)

func TestSumOld(t *testing.T) {
	got, err := Sum(strings.NewReader("a,1\nb,2.5\nc,3\n"), 1, false)
	if err != nil || got != 6.5 {
		t.Fatalf("Sum = %v, %v; want 6.5", got, err)
	}
	if _, err := Sum(strings.NewReader("a,x\n"), 1, false); err == nil {
		t.Fatal("a non-number was summed")
	}
}
