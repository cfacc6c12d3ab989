package ring

import "testing"

func TestPushLen(t *testing.T) {
	r := New(3)
	for i := 1; i <= 5; i++ {
		r.Push(i)
	}
	if r.Len() != 3 {
		t.Fatalf("Len = %d, want 3", r.Len())
	}
	if New(0).Len() != 0 {
		t.Fatal("new ring not empty")
	}
}
