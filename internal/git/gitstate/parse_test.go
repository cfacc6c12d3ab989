package gitstate

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

const oid = "51dbd556fddaa7a7f7bad7d153c8135e63a0db55"

// rec joins records the way `git status -z` terminates them.
func rec(records ...string) []byte {
	return []byte(strings.Join(records, "\x00") + "\x00")
}

func TestParseStatus(t *testing.T) {
	det := "N... 100644 100644 100644 " + oid + " " + oid
	hdr := []string{"# branch.oid " + oid, "# branch.head main"}
	with := func(r ...string) []byte { return rec(append(append([]string{}, hdr...), r...)...) }
	tests := []struct {
		name string
		in   []byte
		want State
	}{
		{"clean", with(), State{Head: oid, Branch: "main"}},
		{"unborn", rec("# branch.oid (initial)", "# branch.head trunk"), State{Head: InitialHead, Branch: "trunk"}},
		{"detached", rec("# branch.oid "+oid, "# branch.head (detached)"), State{Head: oid, Branch: "(detached)"}},
		{"other headers ignored",
			rec("# branch.oid "+oid, "# branch.head main", "# branch.upstream origin/main", "# branch.ab +? -?", "# stash 2"),
			State{Head: oid, Branch: "main"}},
		{"ordinary change",
			with("1 .M N... 100644 100644 100644 " + oid + " " + oid + " src/a.go"),
			State{Head: oid, Branch: "main", Changed: []Change{{XY: ".M", Path: "src/a.go", Detail: det}}}},
		{"ordinary change, path with spaces",
			with("1 M. N... 100644 100644 100644 " + oid + " " + oid + " a b  c.txt"),
			State{Head: oid, Branch: "main", Changed: []Change{{XY: "M.", Path: "a b  c.txt", Detail: det}}}},
		{"ordinary change, path with newline",
			with("1 .M N... 100644 100644 100644 " + oid + " " + oid + " x\ny"),
			State{Head: oid, Branch: "main", Changed: []Change{{XY: ".M", Path: "x\ny", Detail: det}}}},
		{"rename carries original path as next field",
			with("2 R. N... 100644 100644 100644 "+oid+" "+oid+" R100 new name.txt", "old name.txt", "? after.txt"),
			State{Head: oid, Branch: "main",
				Changed:   []Change{{XY: "R.", Path: "new name.txt", OrigPath: "old name.txt", Detail: det + " R100"}},
				Untracked: []string{"after.txt"}}},
		{"copy",
			with("2 C. N... 100644 100644 100644 "+oid+" "+oid+" C75 copy.txt", "orig.txt"),
			State{Head: oid, Branch: "main", Changed: []Change{{XY: "C.", Path: "copy.txt", OrigPath: "orig.txt", Detail: det + " C75"}}}},
		{"unmerged",
			with("u UU N... 100644 100644 100644 100644 " + oid + " " + oid + " " + oid + " conflict me.txt"),
			State{Head: oid, Branch: "main", Changed: []Change{{XY: "UU", Path: "conflict me.txt", Detail: "N... 100644 100644 100644 100644 " + oid + " " + oid + " " + oid}}}},
		{"submodule change",
			with("1 .M S.M. 160000 160000 160000 " + oid + " " + oid + " vendor/lib"),
			State{Head: oid, Branch: "main", Changed: []Change{{XY: ".M", Path: "vendor/lib", Detail: "S.M. 160000 160000 160000 " + oid + " " + oid}}}},
		{"untracked sorted bytewise",
			with("? z.txt", "? a b.txt", "? Ä.txt", "? B.txt"),
			State{Head: oid, Branch: "main", Untracked: []string{"B.txt", "a b.txt", "z.txt", "Ä.txt"}}},
		{"changes sorted by path",
			with("1 .M N... 100644 100644 100644 "+oid+" "+oid+" z", "1 .M N... 100644 100644 100644 "+oid+" "+oid+" a"),
			State{Head: oid, Branch: "main", Changed: []Change{{XY: ".M", Path: "a", Detail: det}, {XY: ".M", Path: "z", Detail: det}}}},
		{"ignored record skipped", with("! node_modules/"), State{Head: oid, Branch: "main"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStatus(tt.in)
			if err != nil {
				t.Fatalf("parseStatus: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseStatus\n got  %+v\n want %+v", got, tt.want)
			}
		})
	}
}

func TestParseStatusMalformed(t *testing.T) {
	head := "# branch.oid " + oid
	tests := []struct {
		name string
		in   []byte
	}{
		{"no branch.oid header", rec("# branch.head main")},
		{"empty output", nil},
		{"missing final NUL", []byte(head + "\x00? a.txt")},
		{"empty record", rec(head, "")},
		{"unknown record type", rec(head, "X what")},
		{"ordinary record too short", rec(head, "1 .M N... 100644 100644 100644 "+oid+" "+oid)},
		{"bad XY", rec(head, "1 M N... 100644 100644 100644 "+oid+" "+oid+" a")},
		{"rename without original path", rec(head, "2 R. N... 100644 100644 100644 "+oid+" "+oid+" R100 new")},
		{"rename with empty original path", rec(head, "2 R. N... 100644 100644 100644 "+oid+" "+oid+" R100 new", "")},
		{"unmerged record too short", rec(head, "u UU N... 100644 100644 100644 100644 "+oid+" x")},
		{"untracked without path", rec(head, "? ")},
		{"v1 output", []byte(" M a.txt\x00")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStatus(tt.in)
			if !errors.Is(err, errMalformed) {
				t.Errorf("parseStatus(%q) = %+v, %v; want errMalformed", tt.in, got, err)
			}
		})
	}
}
