package pagecount

import (
	"reflect"
	"testing"
)

func TestPage(t *testing.T) {
	items := []string{"a", "b", "c", "d", "e"}
	if got := Page(items, 2, 0); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("page 0 = %v", got)
	}
	if got := Page(items, 2, 2); !reflect.DeepEqual(got, []string{"e"}) {
		t.Errorf("page 2 = %v", got)
	}
	if got := Page(items, 2, 3); len(got) != 0 {
		t.Errorf("page 3 = %v", got)
	}
}
