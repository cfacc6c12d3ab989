package events

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"time"
)

// Record is one tribunal.* line of the log read back: the envelope's
// fields and the payload still raw (Decode types it).
type Record struct {
	ID        string
	MachineID string
	SessionID string
	Sequence  int64
	Timestamp time.Time
	EventType string
	// TaskID is the payload's task_id, which every tribunal.* payload
	// carries: the key that groups a task's or a judgement's events.
	TaskID     string
	Payload    json.RawMessage
	CostUSD    *float64
	TokenCount *int
}

// maxLine bounds one line of the log: tribunal's own lines are a few KiB
// (feedback is cut before it is emitted); a longer line is another
// writer's, or damage, and is skipped rather than read whole.
const maxLine = 4 << 20

// ReadLog reads the log from r and returns, in log order, the tribunal.*
// records for which keep returns true (nil keeps all). Lines of other
// plugins are passed over; a line that is not a whole envelope (a torn
// append, a hand edit) is counted in skipped and passed over too, so that
// one bad line never hides the rest of the history. The error is a read
// error of r only.
func ReadLog(r io.Reader, keep func(*Record) bool) (recs []Record, skipped int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, tooLong, err := readLine(br)
		if tooLong {
			skipped++
		} else if len(line) > 0 {
			rec, ok := parseLine(line)
			switch {
			case !ok:
				skipped++
			case rec == nil:
			case keep == nil || keep(rec):
				recs = append(recs, *rec)
			}
		}
		if err == io.EOF {
			return recs, skipped, nil
		}
		if err != nil {
			return recs, skipped, fmt.Errorf("read the events log: %w", err)
		}
	}
}

// readLine returns the next line without its newline; tooLong reports a
// line past maxLine, which is consumed and dropped.
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		frag, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(frag) > maxLine {
				tooLong, line = true, nil
			} else {
				line = append(line, frag...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		return line, tooLong, err
	}
}

// parseLine decodes one envelope; a nil record with ok means a line of
// another plugin (or blank), not damage.
func parseLine(line []byte) (rec *Record, ok bool) {
	var env envelope
	if len(trimSpace(line)) == 0 {
		return nil, true
	}
	if json.Unmarshal(line, &env) != nil {
		return nil, false
	}
	if env.Plugin != pluginName {
		return nil, true
	}
	ts, err := time.Parse(time.RFC3339Nano, env.Timestamp)
	if err != nil || env.EventType == "" || len(env.Payload) == 0 {
		return nil, false
	}
	var key struct {
		TaskID string `json:"task_id"`
	}
	if json.Unmarshal(env.Payload, &key) != nil || key.TaskID == "" {
		return nil, false
	}
	return &Record{
		ID: env.ID, MachineID: env.MachineID, SessionID: env.SessionID, Sequence: env.Sequence,
		Timestamp: ts, EventType: env.EventType, TaskID: key.TaskID, Payload: env.Payload,
		CostUSD: env.CostUSD, TokenCount: env.TokenCount,
	}, true
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// newPayload returns a pointer to a zero payload of eventType. A switch,
// not a table built at start-up: the hooks link this package and must not
// pay for a reader they never call.
func newPayload(eventType string) (any, bool) {
	switch eventType {
	case SessionStart{}.EventType():
		return &SessionStart{}, true
	case SessionComplete{}.EventType():
		return &SessionComplete{}, true
	case IterationStart{}.EventType():
		return &IterationStart{}, true
	case ActorStart{}.EventType():
		return &ActorStart{}, true
	case ActorComplete{}.EventType():
		return &ActorComplete{}, true
	case JuryEmpaneled{}.EventType():
		return &JuryEmpaneled{}, true
	case JudgeStart{}.EventType():
		return &JudgeStart{}, true
	case Verdict{}.EventType():
		return &Verdict{}, true
	case ConsensusReached{}.EventType():
		return &ConsensusReached{}, true
	case DissentRecorded{}.EventType():
		return &DissentRecorded{}, true
	case MetaStart{}.EventType():
		return &MetaStart{}, true
	case MetaComplete{}.EventType():
		return &MetaComplete{}, true
	case GatePassed{}.EventType():
		return &GatePassed{}, true
	case GateBlocked{}.EventType():
		return &GateBlocked{}, true
	case TuneGeneration{}.EventType():
		return &TuneGeneration{}, true
	case TuneDecided{}.EventType():
		return &TuneDecided{}, true
	}
	return nil, false
}

// Decode returns the record's payload as its typed struct (a value, as
// the emitters pass them), checked by Validate: a payload the schema
// refuses is an error, as it would have been when written.
func (r *Record) Decode() (Payload, error) {
	ptr, ok := newPayload(r.EventType)
	if !ok {
		return nil, fmt.Errorf("event %s (%s): unknown event type", r.ID, r.EventType)
	}
	if err := json.Unmarshal(r.Payload, ptr); err != nil {
		return nil, fmt.Errorf("event %s (%s): %w", r.ID, r.EventType, err)
	}
	p := reflect.ValueOf(ptr).Elem().Interface().(Payload)
	if err := Validate(p); err != nil {
		return nil, fmt.Errorf("event %s: %w", r.ID, err)
	}
	return p, nil
}
