package ring

import (
	"errors"
	"reflect"
	"testing"
)

func TestPopValues(t *testing.T) {
	r := New(3)
	if _, err := r.Pop(); !errors.Is(err, ErrEmpty) {
		t.Fatalf("Pop on empty ring: %v, want ErrEmpty", err)
	}
	if got := r.Values(); len(got) != 0 {
		t.Fatalf("Values of empty ring = %v", got)
	}
	r.Push(1)
	r.Push(2)
	if got := r.Values(); !reflect.DeepEqual(got, []int{1, 2}) {
		t.Fatalf("Values = %v, want [1 2]", got)
	}
	for i := 3; i <= 7; i++ {
		r.Push(i) // wraps: holds 5 6 7
	}
	if got := r.Values(); !reflect.DeepEqual(got, []int{5, 6, 7}) {
		t.Fatalf("Values after wrapping = %v, want [5 6 7]", got)
	}
	for _, want := range []int{5, 6} {
		if v, err := r.Pop(); err != nil || v != want {
			t.Fatalf("Pop = %d, %v; want %d", v, err, want)
		}
	}
	r.Push(8)
	r.Push(9)
	if got := r.Values(); !reflect.DeepEqual(got, []int{7, 8, 9}) {
		t.Fatalf("Values = %v, want [7 8 9]", got)
	}
	for _, want := range []int{7, 8, 9} {
		if v, err := r.Pop(); err != nil || v != want {
			t.Fatalf("Pop = %d, %v; want %d", v, err, want)
		}
	}
	if _, err := r.Pop(); !errors.Is(err, ErrEmpty) || r.Len() != 0 {
		t.Fatalf("Pop after draining: %v, Len %d", err, r.Len())
	}
}
