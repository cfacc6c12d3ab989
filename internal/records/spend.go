package records

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// StopSpendFile is what the Stop judge has spent today in a project, for
// tribunal.stop_hook.daily_budget_usd: the judge adds each call's cost,
// the hook reads it before it starts one.
const StopSpendFile = "advisory-spend.json"

// StopSpend is StopSpendFile's content. A Day other than today is a
// spend of zero.
type StopSpend struct {
	// Day is the UTC date the spend is of (2006-01-02).
	Day string  `json:"day"`
	USD float64 `json:"usd"`
	// Noticed is set once the user has been told, that day, that the
	// judge paused.
	Noticed bool `json:"noticed,omitempty"`
}

// Today is the UTC date of now, as StopSpend.Day holds it.
func Today(now time.Time) string { return now.UTC().Format(time.DateOnly) }

// maxSpend bounds the spend file.
const maxSpend = 4 << 10

// ReadStopSpend reads today's spend of the project; a missing, damaged or
// older file is zero for today.
func ReadStopSpend(projectDir string, now time.Time) StopSpend {
	today := StopSpend{Day: Today(now)}
	data, err := store.ReadRegular(filepath.Join(projectDir, StopSpendFile), maxSpend)
	if err != nil {
		return today
	}
	var s StopSpend
	if json.Unmarshal(data, &s) != nil || s.Day != today.Day || s.USD < 0 {
		return today
	}
	return s
}

// UpdateStopSpend changes today's spend under the file's lock (waiting at
// most wait for another writer): add is added to it, and notice marks the
// pause told. It returns the spend as written.
func UpdateStopSpend(projectDir string, now time.Time, add float64, notice bool, wait time.Duration) (StopSpend, error) {
	path := filepath.Join(projectDir, StopSpendFile)
	unlock, err := store.LockFile(path+".lock", true, wait)
	if err != nil {
		return StopSpend{}, fmt.Errorf("record the Stop judge's spend: %w", err)
	}
	defer unlock()
	s := ReadStopSpend(projectDir, now)
	if add > 0 {
		s.USD += add
	}
	s.Noticed = s.Noticed || notice
	if err := store.WriteJSON(path, s); err != nil {
		return s, fmt.Errorf("record the Stop judge's spend: %w", err)
	}
	return s, nil
}
