package answer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
)

// InputError is a text or case tribunal refuses to judge: nothing is
// judged or recorded, and Hint says what to pass instead.
type InputError struct {
	Err  error
	Hint string
}

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// ReadText reads one text to judge (an answer, an expected answer, a
// context file) from r, which what names, at most max bytes (the
// per-file bound of a task's change): an empty, binary
// (NUL bytes or not UTF-8) or larger text is an *InputError.
func ReadText(r io.Reader, what string, max int64) (string, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", what, err)
	}
	return CheckText(data, what, max)
}

// CheckText is ReadText's checks on data already read.
func CheckText(data []byte, what string, max int64) (string, error) {
	switch {
	case int64(len(data)) > max:
		return "", &InputError{Err: fmt.Errorf("%s is over %s bytes", what, strconv.FormatInt(max, 10)),
			Hint: "judge a shorter text: the bound is a task's per-file bound (50 MiB unless configured)"}
	case len(bytes.TrimSpace(data)) == 0:
		return "", &InputError{Err: fmt.Errorf("%s is empty", what), Hint: "an empty answer has nothing to judge: pass the file that holds it"}
	case bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data):
		return "", &InputError{Err: fmt.Errorf("%s is binary (not UTF-8 text)", what), Hint: "judge text or JSON; a binary file is not an answer"}
	}
	return string(data), nil
}

// Line is one case of a batch (`judge --cases`, one JSON object a line).
type Line struct {
	ID       string          `json:"id"`
	Question string          `json:"question"`
	Answer   string          `json:"answer"`
	Expected *string         `json:"expected"`
	Context  json.RawMessage `json:"context"`
	// LatencyMS and CostUSD are what the answering model took, when the
	// pipeline knows.
	LatencyMS *float64 `json:"latency_ms"`
	CostUSD   *float64 `json:"cost_usd"`
}

// ReadCases reads a batch: every non-blank line one case. A line that is
// not such an object, lacks its question or answer, or has a text
// ReadText would refuse, fails the batch naming the line: nothing is
// judged until every case can be.
func ReadCases(r io.Reader, max int64) ([]Line, error) {
	var out []Line
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), int(max)*2+4096)
	for n := 1; sc.Scan(); n++ {
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		l, err := readLine(raw, max)
		if err != nil {
			var ie *InputError
			if errors.As(err, &ie) {
				return nil, &InputError{Err: fmt.Errorf("line %d: %w", n, ie.Err), Hint: ie.Hint}
			}
			return nil, &InputError{Err: fmt.Errorf("line %d: %w", n, err), Hint: caseHint}
		}
		if l.ID == "" {
			l.ID = strconv.Itoa(n)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		return nil, &InputError{Err: fmt.Errorf("cannot read the cases: %w", err), Hint: caseHint}
	}
	if len(out) == 0 {
		return nil, &InputError{Err: errors.New("the cases file holds no case"), Hint: caseHint}
	}
	return out, nil
}

const caseHint = `each line is one JSON object: {"id":"1","question":"…","answer":"…","expected":"…","context":["…"]} (only answer is required; expected needs a question)`

func readLine(raw []byte, max int64) (Line, error) {
	var l Line
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return l, fmt.Errorf("not a case: %v", err)
	}
	switch {
	case strings.TrimSpace(l.Question) == "" && l.Expected != nil:
		return l, &InputError{Err: errors.New("an expected answer needs the question it answers"), Hint: caseHint}
	case l.Question != "":
		if _, err := CheckText([]byte(l.Question), "the question", max); err != nil {
			return l, err
		}
	}
	if _, err := CheckText([]byte(l.Answer), "the answer", max); err != nil {
		return l, err
	}
	_, err := l.Sources()
	return l, err
}

// Sources is the line's context: one string or a list of strings, named
// context[i].
func (l Line) Sources() ([]prompts.Source, error) {
	if len(l.Context) == 0 || string(l.Context) == "null" {
		return nil, nil
	}
	var one string
	if json.Unmarshal(l.Context, &one) == nil {
		return []prompts.Source{{Name: "context", Text: one}}, nil
	}
	var many []string
	if err := json.Unmarshal(l.Context, &many); err != nil {
		return nil, errors.New("context must be a string or a list of strings")
	}
	var out []prompts.Source
	for i, s := range many {
		out = append(out, prompts.Source{Name: fmt.Sprintf("context[%d]", i), Text: s})
	}
	return out, nil
}
