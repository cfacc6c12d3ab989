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
		FullDescription  sarifMessage `json:"fullDescription"`
		Help             sarifMessage `json:"help"`
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
		RuleID              string             `json:"ruleId"`
		RuleIndex           int                `json:"ruleIndex"`
		Level               string             `json:"level"`
		Message             sarifMessage       `json:"message"`
		Locations           []sarifLocation    `json:"locations,omitempty"`
		PartialFingerprints map[string]string  `json:"partialFingerprints,omitempty"`
		Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
		Properties          map[string]any     `json:"properties"`
	}
	// sarifSuppression marks a result that is kept but does not count: a
	// finding the verification step refuted (spec §6.8).
	sarifSuppression struct {
		Kind          string `json:"kind"`
		Status        string `json:"status"`
		Justification string `json:"justification"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region"`
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
// located finding, its rule the finding's criterion (else
// UncategorisedRule), its level from the severity table, its fingerprint in
// partialFingerprints, a finding on a whole file placed at line 1.
// Code scanning requires a location on every result, and must not point
// at a line a judge made up, so findings about the change as a whole and
// findings at an unverified location are listed in the run's properties
// ("unlocatedFindings") instead. Judge failures are the invocation's
// notifications, and a review whose judges all failed is an unsuccessful
// execution, not a clean result.
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
	unlocated := []map[string]any{}
	for _, f := range Ordered(r.Findings) {
		if f.File == "" || f.Unverified {
			unlocated = append(unlocated, unlocatedFinding(f))
			continue
		}
		id := ruleID(f)
		i, ok := index[id]
		if !ok {
			i = len(run.Tool.Driver.Rules)
			index[id] = i
			text := sarifMessage{ruleText(f)}
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: id, ShortDescription: text, FullDescription: text, Help: sarifMessage{ruleHelp}})
		}
		run.Results = append(run.Results, sarifFinding(f, id, i))
	}
	if len(unlocated) > 0 {
		run.Properties["unlocatedFindings"] = unlocated
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
	if len(r.PolicyFromBase) > 0 {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{
			Level: "warning", Message: sarifMessage{sentence(PolicySentence(r.PolicyFromBase))},
		})
	}
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
	if len(r.PolicyFromBase) > 0 {
		p["policyFromBase"] = r.PolicyFromBase
	}
	return p
}

func ruleText(f Finding) string {
	if f.Criterion != "" {
		return sentence("Findings on the rubric criterion " + f.Criterion)
	}
	return "Findings of tribunal's jury that name no rubric criterion."
}

// ruleHelp is every rule's help: tribunal's rules are the rubric's
// criteria, judged by models, so the help says how to contest a finding.
const ruleHelp = "A finding of tribunal's model jury on this rubric criterion. The pull-request comment has the judge's full text; to dismiss a finding, add its fingerprint to the base branch's dismissal file (a pull request's own copy is not read)."

func sarifFinding(f Finding, id string, index int) sarifResult {
	msg := strings.TrimSpace(f.Message)
	if msg == "" {
		msg = "The judge gave no message for this " + rung(f).String() + " finding"
	}
	region := &sarifRegion{StartLine: max(f.Line, 1)}
	res := sarifResult{
		RuleID: id, RuleIndex: index, Level: mapped(f).sarif,
		Message: sarifMessage{sentence(msg)},
		Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
			ArtifactLocation: sarifArtifact{URI: fileURI(f.File), URIBaseID: "%SRCROOT%"},
			Region:           region,
		}}},
		Properties: findingProperties(f),
	}
	if f.Fingerprint != "" {
		res.PartialFingerprints = map[string]string{FingerprintKey: f.Fingerprint}
	}
	if f.Suggestion != nil {
		res.Properties["suggestion"] = f.Suggestion
	}
	if f.Refuted {
		res.Properties["refuted"] = true
		res.Suppressions = []sarifSuppression{{Kind: "external", Status: "accepted",
			Justification: "Refuted by tribunal's verification step: kept for the record, it does not block."}}
	}
	return res
}

// findingProperties are a finding's severity, judge and criterion as
// SARIF properties; a criterion the judge did not name is left out, not
// written empty.
func findingProperties(f Finding) map[string]any {
	p := map[string]any{"severity": rung(f).String(), "judge": f.Judge}
	if f.Criterion != "" {
		p["criterion"] = f.Criterion
	}
	return p
}

// unlocatedFinding is a finding code scanning cannot place, as data.
func unlocatedFinding(f Finding) map[string]any {
	u := findingProperties(f)
	u["message"], u["fingerprint"] = safetext.Inline(f.Message, 0), f.Fingerprint
	if f.File != "" {
		u["cited"] = safetext.Inline(cited(f), 0)
		u["unverified"] = true
	}
	return u
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

// SARIFSummary reads back, from a log SARIF wrote, the review's id and
// outcome (its run's properties): what the CI integrations set as step
// outputs without parsing the comment.
func SARIFSummary(data []byte) (id, outcome string, err error) {
	var log struct {
		Runs []struct {
			Properties struct {
				ReviewID string `json:"reviewId"`
				Outcome  string `json:"outcome"`
			} `json:"properties"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		return "", "", fmt.Errorf("reviewfmt: read a review's SARIF: %w", err)
	}
	if len(log.Runs) != 1 || log.Runs[0].Properties.Outcome == "" {
		return "", "", fmt.Errorf("reviewfmt: the SARIF log is not one written by tribunal-session review (no run with an outcome)")
	}
	p := log.Runs[0].Properties
	return p.ReviewID, p.Outcome, nil
}
