package unidiff

// Sides are the lines of one file a pull-request review may comment on:
// GitHub accepts a review comment only on a line its diff shows. Right
// holds the post-image lines shown (added and context, numbered in the new
// file); Left the pre-image lines removed (numbered in the old file).
type Sides struct {
	Right, Left map[int]bool
}

// Side names GitHub's diff sides: RIGHT is the head's version of a line,
// LEFT the base's.
const (
	SideRight = "RIGHT"
	SideLeft  = "LEFT"
)

// DiffSides are the lines f's hunks show, by side (from Lines, which
// owns the numbering). A context line is on both sides; GitHub places a
// comment on it on the RIGHT, so only removed lines are LEFT.
func (f File) DiffSides() Sides {
	s := Sides{Right: map[int]bool{}, Left: map[int]bool{}}
	for _, l := range f.Lines() {
		if l.Op == '-' {
			s.Left[l.Number] = true
		} else {
			s.Right[l.Number] = true
		}
	}
	return s
}

// Side is where a comment on line n of the head's file goes: RIGHT when
// the diff shows that line of the new file, "" when the diff does not show
// it (the comment would be refused with 422).
func (s Sides) Side(n int) string {
	if s.Right[n] {
		return SideRight
	}
	return ""
}
