package reviewfmt

import "errors"

// Markdown renders r as one PR-comment body.
func Markdown(r Review, o MarkdownOptions) string { return Marker + "\n" }

// Marker is the hidden first line of every comment body, by which the CI
// integrations find the one comment to update.
const Marker = "<!-- tribunal-review -->"

// SARIF renders r as a SARIF 2.1.0 log.
func SARIF(r Review, toolVersion string) ([]byte, error) {
	return nil, errors.New("reviewfmt: sarif: in progress")
}

// CodeQuality renders r as a GitLab Code Quality report.
func CodeQuality(r Review) ([]byte, error) {
	return nil, errors.New("reviewfmt: codequality: in progress")
}
