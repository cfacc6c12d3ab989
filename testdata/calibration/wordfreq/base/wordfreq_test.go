package wordfreq

import (
	"reflect"
	"testing"
)

func TestCount(t *testing.T) {
	got := Count("the cat The  dog\tthe")
	want := map[string]int{"the": 3, "cat": 1, "dog": 1}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Count = %v, want %v", got, want)
	}
}
