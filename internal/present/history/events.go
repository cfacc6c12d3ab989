package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"

	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// event is the part of an Onlooker envelope (spec §10) history uses.
type event struct {
	Type       string          `json:"event_type"`
	SessionID  string          `json:"session_id"`
	Timestamp  string          `json:"timestamp"`
	Payload    json.RawMessage `json:"payload"`
	CostUSD    *float64        `json:"cost_usd"`
	TokenCount *int            `json:"token_count"`
}

// scanEvents reads the events log once and returns, per wanted task id,
// its tribunal events in log order. The log is shared by every Onlooker
// plugin and may be large, so a line is decoded only when it mentions a
// wanted task id. A missing log is not an error: the layout is the primary
// record and the log only fills its gaps.
func scanEvents(logPath string, taskIDs []string) (map[string][]event, error) {
	out := map[string][]event{}
	if logPath == "" || len(taskIDs) == 0 {
		return out, nil
	}
	f, err := store.OpenRegular(logPath)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, records.FileProblem(logPath, err)
	}
	defer f.Close()
	needles := make([][]byte, len(taskIDs))
	for i, id := range taskIDs {
		needles[i] = []byte(`"` + id + `"`)
	}
	r := bufio.NewReaderSize(f, 1<<16)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && bytes.Contains(line, []byte(`"tribunal.`)) {
			for i, n := range needles {
				if !bytes.Contains(line, n) {
					continue
				}
				var e event
				var p struct {
					TaskID string `json:"task_id"`
				}
				if json.Unmarshal(line, &e) == nil && json.Unmarshal(e.Payload, &p) == nil && p.TaskID == taskIDs[i] {
					out[p.TaskID] = append(out[p.TaskID], e)
				}
				break
			}
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, &records.Problem{Path: logPath, Err: err}
		}
	}
}

// completeFromEvents finds a task's session.complete event.
func completeFromEvents(evs []event) (*records.Complete, bool) {
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type != "tribunal.session.complete" {
			continue
		}
		var c records.Complete
		if json.Unmarshal(evs[i].Payload, &c) == nil && c.Outcome != "" {
			return &c, true
		}
	}
	return nil, false
}
