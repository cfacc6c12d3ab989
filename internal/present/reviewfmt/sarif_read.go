package reviewfmt

import (
	"encoding/json"
	"fmt"
	"net/url"
)

// SARIFFindings reads back, from a log SARIF wrote, the located findings
// (those code scanning can place: a verified file and line) with their
// fingerprints: what the GitHub Action posts as review threads without
// parsing the comment. Findings SARIF keeps unlocated are not returned;
// they stay in the comment only.
func SARIFFindings(data []byte) ([]Finding, error) {
	var log sarifLog
	if err := json.Unmarshal(data, &log); err != nil {
		return nil, fmt.Errorf("reviewfmt: read a review's SARIF: %w", err)
	}
	if len(log.Runs) != 1 {
		return nil, fmt.Errorf("reviewfmt: the SARIF log is not one written by tribunal-session review (%d runs)", len(log.Runs))
	}
	var out []Finding
	for _, r := range log.Runs[0].Results {
		if len(r.Locations) == 0 || r.Locations[0].PhysicalLocation.Region == nil {
			continue
		}
		loc := r.Locations[0].PhysicalLocation
		file, err := url.PathUnescape(loc.ArtifactLocation.URI)
		if err != nil {
			file = loc.ArtifactLocation.URI
		}
		str := func(k string) string { s, _ := r.Properties[k].(string); return s }
		refuted, _ := r.Properties["refuted"].(bool)
		out = append(out, Finding{
			Judge: str("judge"), Criterion: str("criterion"), Severity: str("severity"),
			File: file, Line: loc.Region.StartLine, Message: r.Message.Text,
			Refuted: refuted, Fingerprint: r.PartialFingerprints[FingerprintKey],
			Suggestion: suggestionOf(r.Properties["suggestion"]),
		})
	}
	return out, nil
}

// suggestionOf reads a result's suggestion property back; anything but
// the shape SARIF wrote is no suggestion.
func suggestionOf(v any) *Suggestion {
	if v == nil {
		return nil
	}
	data, err := json.Marshal(v)
	var s Suggestion
	if err != nil || json.Unmarshal(data, &s) != nil || s.StartLine < 1 || s.EndLine < s.StartLine {
		return nil
	}
	return &s
}

// SARIFFingerprints are the fingerprints of every finding a log SARIF
// wrote holds, located or not: what the review still raises.
func SARIFFingerprints(data []byte) (map[string]bool, error) {
	var log struct {
		Runs []struct {
			Results []struct {
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
			Properties struct {
				Unlocated []struct {
					Fingerprint string `json:"fingerprint"`
				} `json:"unlocatedFindings"`
			} `json:"properties"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		return nil, fmt.Errorf("reviewfmt: read a review's SARIF: %w", err)
	}
	out := map[string]bool{}
	for _, run := range log.Runs {
		for _, r := range run.Results {
			if fp := r.PartialFingerprints[FingerprintKey]; fp != "" {
				out[fp] = true
			}
		}
		for _, u := range run.Properties.Unlocated {
			if u.Fingerprint != "" {
				out[u.Fingerprint] = true
			}
		}
	}
	return out, nil
}
