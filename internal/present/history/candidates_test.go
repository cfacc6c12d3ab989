package history

import (
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// TestShowOfADamagedSetSaysSo: a candidates.json whose winner is not
// among its candidates (edited, truncated) is shown as damaged; it was
// an index out of range that crashed show.
func TestShowOfADamagedSetSaysSo(t *testing.T) {
	for _, winner := range []int{9, -1} {
		best := &records.BestOfN{Candidates: []records.Candidate{{Index: 1, TaskID: "01JA", Outcome: "accepted"}}, Winner: winner}
		out := RenderTask(&TaskView{TaskID: "01JSET", BestOfN: best})
		if !strings.Contains(out, "which the file does not list (damaged)") {
			t.Errorf("winner %d: show says\n%s", winner, out)
		}
	}
}
