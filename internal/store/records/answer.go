package records

// KindAnswer marks a task directory that holds a judged answer
// (`tribunal-session judge`, spec §7.20): no actor, no change, one round
// of judging of an answer to a question.
const KindAnswer = "answer"

// AnswerFile is answer.json in a judged answer's task directory.
const AnswerFile = "answer.json"

// Answer is answer.json: what was judged, its digests, the deterministic
// checks and the outcome.
type Answer struct {
	AnswerID string `json:"answer_id"`
	// CaseID is the batch case's id (judge --cases), "" for one answer.
	CaseID string `json:"case_id,omitempty"`
	// Question and Answer are the texts judged; Expected the reference
	// (with Match, its mode) when one was given.
	Question string  `json:"question"`
	Answer   string  `json:"answer"`
	Expected *string `json:"expected,omitempty"`
	Match    string  `json:"match,omitempty"`
	Format   string  `json:"format"`
	// Criteria are the caller's own requirements the judges were given.
	Criteria []string `json:"criteria,omitempty"`
	// Context names the material the answer was judged as grounded in.
	Context []string `json:"context,omitempty"`
	Digests Digests  `json:"digests"`
	// LatencyMS and CostUSD are what the caller reported of the answering
	// model (nil: not reported).
	LatencyMS *float64 `json:"latency_ms,omitempty"`
	CostUSD   *float64 `json:"cost_usd,omitempty"`
	// Outcome is accepted, rejected or no-verdict; Reason the gate's
	// one-line reason.
	Outcome  string          `json:"outcome"`
	Reason   string          `json:"reason"`
	Checks   []Command       `json:"checks"`
	Findings []ReviewFinding `json:"findings"`
}

// Digests are the hex SHA-256 of what a verdict on an answer vouches for:
// the question, the answer, the expected answer and each context text as
// bytes, and the rubric's canonical JSON (jcs.SHA256).
type Digests struct {
	Question string   `json:"question_sha256"`
	Answer   string   `json:"answer_sha256"`
	Expected string   `json:"expected_sha256,omitempty"`
	Context  []string `json:"context_sha256,omitempty"`
	Rubric   string   `json:"rubric_sha256,omitempty"`
}
