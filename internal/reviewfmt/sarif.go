package reviewfmt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// FingerprintKey names the finding's fingerprint among a SARIF result's
// partialFingerprints. Code scanning matches a result across uploads by
// it, so a finding that did not move is not raised again; the version
// suffix changes with the fingerprint rule.
const FingerprintKey = "tribunalFinding/v1"

// SARIFCategory is the automation category of every run (the part of
// automationDetails.id before its last '/'): code scanning replaces the
// previous upload of the same category, so each push's review supersedes
// the last.
const SARIFCategory = "tribunal-review"

// The SARIF 2.1.0 objects tribunal writes: only the properties it fills.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool              sarifTool         `json:"tool"`
		AutomationDetails sarifAutomation   `json:"automationDetails"`
		Invocations       []sarifInvocation `json:"invocations"`
		Results           []sarifResult     `json:"results"`
		Properties        map[string]any    `json:"properties,omitempty"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID               string       `json:"id"`
		ShortDescription sarifMessage `json:"shortDescription"`
	}
	sarifAutomation struct {
		ID string `json:"id"`
	}
	sarifInvocation struct {
		ExecutionSuccessful        bool                `json:"executionSuccessful"`
		ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level   string       `json:"level"`
		Message sarifMessage `json:"message"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifMessage      `json:"message"`
		Locations           []sarifLocation   `json:"locations,omitempty"`
		PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
		Properties          map[string]any    `json:"properties"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId"`
	}
	sarifRegion struct {
		StartLine int `json:"startLine"`
	}
)

// SARIF renders r as a SARIF 2.1.0 log with one run: one result per
// finding, its rule the finding's criterion (else its judge's type), its
// level from the severity table, its fingerprint in partialFingerprints.
// A finding without a file, or whose location is unverified, has no
// location (code scanning must not point at a line the judge made up);
// the cited place is then in the message. Judge failures are the
// invocation's notifications, and a review whose judges all failed is an
// unsuccessful execution, not a clean result.
func SARIF(r Review, toolVersion string) ([]byte, error) {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: "tribunal", Version: safetext.OneLine(toolVersion, 64),
			InformationURI: "https://github.com/tribunal-cc/tribunal",
			Rules:          []sarifRule{},
		}},
		AutomationDetails: sarifAutomation{ID: SARIFCategory + "/" + safetext.OneLine(r.ID, 64)},
		Invocations:       []sarifInvocation{sarifInvoke(r)},
		Results:           []sarifResult{},
		Properties:        runProperties(r),
	}
	index := map[string]int{}
	for _, f := range ordered(r.Findings) {
		id := ruleID(f)
		i, ok := index[id]
		if !ok {
			i = len(run.Tool.Driver.Rules)
			index[id] = i
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: id, ShortDescription: sarifMessage{ruleText(f)}})
		}
		run.Results = append(run.Results, sarifFinding(f, id, i))
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
	if err != nil {
		return nil, fmt.Errorf("reviewfmt: encode SARIF for review %s: %w", r.ID, err)
	}
	return b.Bytes(), nil
}

func sarifInvoke(r Review) sarifInvocation {
	inv := sarifInvocation{ExecutionSuccessful: r.Outcome != OutcomeNoVerdict}
	for _, j := range r.Judges {
		if j.Failure != "" {
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{
				Level:   "error",
				Message: sarifMessage{sentence(fmt.Sprintf("The %s judge failed: %s", j.Type, j.Failure))},
			})
		}
	}
	return inv
}

func runProperties(r Review) map[string]any {
	p := map[string]any{
		"reviewId": r.ID, "outcome": r.Outcome, "reason": safetext.OneLine(r.Reason, 0),
		"rubric": r.RubricID, "threshold": r.Threshold, "reused": r.Reused, "dismissed": r.Dismissed,
	}
	if r.Base != "" {
		p["base"], p["head"] = r.Base, r.Head
	}
	if r.CostUSD != nil {
		p["costUsd"] = *r.CostUSD
	}
	if len(r.Omitted) > 0 {
		p["omitted"] = r.Omitted
	}
	return p
}

func ruleText(f Finding) string {
	if f.Criterion != "" {
		return sentence("Findings on the rubric criterion " + f.Criterion)
	}
	if f.Judge != "" {
		return sentence("Findings of the " + f.Judge + " judge")
	}
	return "Findings of tribunal's jury."
}

func sarifFinding(f Finding, id string, index int) sarifResult {
	res := sarifResult{
		RuleID: id, RuleIndex: index, Level: mapped(f).sarif,
		Properties: map[string]any{"severity": rung(f).String(), "judge": f.Judge, "criterion": f.Criterion, "unverified": f.Unverified},
	}
	msg := f.Message
	if strings.TrimSpace(msg) == "" {
		msg = "The judge gave no message for this " + rung(f).String() + " finding"
	}
	switch {
	case f.File != "" && f.Unverified:
		msg = fmt.Sprintf("%s (cited at %s, which does not exist in the reviewed change)", strings.TrimSpace(msg), cited(f))
	case f.File != "":
		loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: fileURI(f.File), URIBaseID: "%SRCROOT%"}}}
		if f.Line > 0 {
			loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Line}
		}
		res.Locations = []sarifLocation{loc}
	}
	res.Message = sarifMessage{sentence(msg)}
	if f.Fingerprint != "" {
		res.PartialFingerprints = map[string]string{FingerprintKey: f.Fingerprint}
	}
	return res
}

func cited(f Finding) string {
	if f.Line > 0 {
		return f.File + ":" + itoa(f.Line)
	}
	return f.File
}

// fileURI is a repository-relative path as a relative URI reference:
// each segment percent-encoded, so a space or '#' in a name stays part
// of the path.
func fileURI(file string) string {
	segs := strings.Split(strings.TrimPrefix(strings.ReplaceAll(file, "\\", "/"), "./"), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// sentence is untrusted text as one line that ends like a sentence (SARIF
// asks plain-text messages to).
func sentence(s string) string {
	s = safetext.Inline(s, 0)
	if s != "" && !strings.ContainsAny(s[len(s)-1:], ".!?") {
		s += "."
	}
	return s
}
