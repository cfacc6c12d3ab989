package reviewfmt

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// codeQualityIssue is one entry of GitLab's Code Quality report (a subset
// of the Code Climate issue format GitLab reads).
type codeQualityIssue struct {
	Description string              `json:"description"`
	CheckName   string              `json:"check_name"`
	Fingerprint string              `json:"fingerprint"`
	Severity    string              `json:"severity"`
	Location    codeQualityLocation `json:"location"`
}

type codeQualityLocation struct {
	Path  string `json:"path"`
	Lines struct {
		Begin int `json:"begin"`
	} `json:"lines"`
}

// CodeQuality renders r as a GitLab Code Quality report: a JSON array
// with one issue per finding that has a verified file. GitLab requires a
// path and a line on every issue, so findings about the change as a whole
// and findings at a location the judge made up are left to the comment
// and the SARIF and JSON outputs; a finding without a line is placed on
// line 1. Every issue needs a fingerprint, and the review command gives
// each finding one: a finding without it is an error, not a guess.
func CodeQuality(r Review) ([]byte, error) {
	issues := []codeQualityIssue{}
	for _, f := range Ordered(r.Findings) {
		if f.File == "" || f.Unverified {
			continue
		}
		if f.Fingerprint == "" {
			return nil, fmt.Errorf("reviewfmt: Code Quality report for review %s: finding at %s has no fingerprint", r.ID, safetext.OneLine(cited(f), 200))
		}
		is := codeQualityIssue{
			Description: description(f), CheckName: ruleID(f), Fingerprint: f.Fingerprint,
			Severity: mapped(f).codeQuality,
		}
		if f.Refuted {
			// Code Quality has no suppression: a refuted finding is shown
			// at the lowest severity and says why.
			is.Description, is.Severity = "refuted by verification, does not block — "+is.Description, "info"
		}
		is.Location.Path = f.File
		is.Location.Lines.Begin = max(f.Line, 1)
		issues = append(issues, is)
	}
	if len(r.PolicyFromBase) > 0 {
		issues = append(issues, policyIssue(r.PolicyFromBase))
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(issues); err != nil {
		return nil, fmt.Errorf("reviewfmt: encode the Code Quality report for review %s: %w", r.ID, err)
	}
	return b.Bytes(), nil
}

// policyIssue says, in a report that has no place for a note, that the
// change's own policy edits were not used: an info issue on the first
// policy file it edits (GitLab wants a path and a line on every issue),
// its fingerprint the paths' so that it is one issue across pushes.
func policyIssue(paths []string) codeQualityIssue {
	sum := sha256.Sum256([]byte("tribunal-policy\x00" + strings.Join(paths, "\x00")))
	is := codeQualityIssue{Description: sentence(PolicySentence(paths)), CheckName: "tribunal-policy",
		Fingerprint: hex.EncodeToString(sum[:16]), Severity: "info"}
	is.Location.Path = paths[0]
	is.Location.Lines.Begin = 1
	return is
}

// description is the finding's message on one line, with who raised it.
func description(f Finding) string {
	d := safetext.Inline(f.Message, 0)
	if d == "" {
		d = "(no message)"
	}
	if f.Judge != "" {
		d = safetext.Inline(f.Judge, 60) + ": " + d
	}
	return d
}
