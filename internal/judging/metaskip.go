package judging

import (
	"fmt"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/judging/gate"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// MetaSkipDetail decides spec §4.6 Skipping for one round: with the rule
// on, a jury whose every seat has a usable verdict, all agreeing and each
// at least MinConfidence confident, with no dissent beyond its threshold
// and under a policy other than meta_override, needs no meta-judge. It
// returns the words saying why ("" when the meta-judge must run). It is
// the one copy of the rule, which the dry run names too.
func MetaSkipDetail(s config.MetaSkip, policy rules.Policy, vs []verdict.Verdict, dissent, dissentThreshold float64) string {
	if !s.Enabled || len(vs) == 0 || policy == rules.MetaOverride || gate.DissentExceeds(dissent, dissentThreshold) {
		return ""
	}
	passes := 0
	for _, v := range vs {
		if _, ok := v.UsableScore(); !ok || v.Confidence == nil || *v.Confidence < s.MinConfidence {
			return ""
		}
		if v.Passed {
			passes++
		}
	}
	if passes != 0 && passes != len(vs) {
		return ""
	}
	word := "pass"
	if passes == 0 {
		word = "fail"
	}
	return fmt.Sprintf("all %d judges %s, each at least %.2f confident", len(vs), word, s.MinConfidence)
}

// skipMeta records a round that goes without the meta-judge: meta.json
// saying so, the report and a progress line. It emits no meta event:
// meta.complete would need a quality word the meta-judge never said, and
// the canonical onlooker schema has no type for a skip, so the event
// chain simply has no meta step. The gate reads the skipped Meta as no
// bias and no override.
func (r *round) skipMeta(detail string) {
	it := r.it
	it.Meta = verdict.SkippedMeta(detail)
	r.write(filepath.Join(r.in.ArtifactDir, records.MetaFile), records.Meta{
		MetaComplete: events.MetaComplete{TaskID: r.in.TaskID, IterationID: it.Report.IterationID},
		Skipped:      true, SkipReason: verdict.SkipUnanimous + ": " + detail,
	})
	it.Report.Meta = MetaReport{Skipped: true, SkipReason: verdict.SkipUnanimous + ": " + detail}
	r.progress("%s meta-judge: skipped (%s)", r.in.Label, detail)
}
