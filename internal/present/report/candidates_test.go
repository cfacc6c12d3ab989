package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// TestPageComparesTheCandidates: a best-of-N task's page shows every
// candidate, both orders of each comparison and the winner, in show's
// words and escaped; a damaged winner index is said, not followed.
func TestPageComparesTheCandidates(t *testing.T) {
	project := writeFixture(t, "pick the best", fixtureIterations())
	set := `{"candidates":[
 {"index":1,"task_id":"01JCAND1","outcome":"accepted","final_score":0.81,"iterations_used":1,"finalist":true,"pairwise_wins":0,"state":"kept","branch":"tribunal/<b>cand-1</b>"},
 {"index":2,"task_id":"01JCAND2","outcome":"accepted","final_score":0.9,"iterations_used":2,"finalist":true,"pairwise_wins":1,"state":"applied"},
 {"index":3,"task_id":"01JCAND3","outcome":"rejected","final_score":0.4,"iterations_used":3,"finalist":false,"pairwise_wins":0}],
 "comparisons":[{"context":"c","a_id":"01JCAND1","b_id":"01JCAND2","a_index":1,"b_index":2,"a_first":"b","b_first":"b","result":"b","cost_usd":0.1}],
 "winner":2,"applied":true}`
	testkit.WriteFile(t, filepath.Join(project, fixtureTask, "candidates.json"), set)
	page, _ := renderFixture(t, project)
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, want := range []string{
		`id="candidates"`,
		`best of 3 — finalists compared pairwise`,
		`<tr class="winner"><td>candidate 2 <strong>(winner)</strong></td><td><code>01JCAND2</code></td>`,
		`kept as tribunal/‹b›cand-1‹/b›`,
		`compared 1 with 2: 1 shown first → candidate 2; 2 shown first → candidate 2; result candidate 2`,
		`winner: candidate 2 (1 pairwise win(s)), applied`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the page lacks %q", want)
		}
	}

	testkit.WriteFile(t, filepath.Join(project, fixtureTask, "candidates.json"), strings.Replace(set, `"winner":2`, `"winner":9`, 1))
	page, _ = renderFixture(t, project)
	data, _ = os.ReadFile(page)
	if !strings.Contains(string(data), "winner: candidate 9, which the file does not list (damaged)") {
		t.Error("a winner outside the candidates is not said as damaged")
	}
}
