package records

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// StopSpendFile is what the Stop judge has spent today in a project, for
// tribunal.stop_hook.daily_budget_usd: a judge reserves an estimate of its
// cost before it starts and settles it to the call's cost after.
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
	// Calls is how many judge calls USD is the cost of (the estimate of
	// the next one is their mean).
	Calls int `json:"calls,omitempty"`
	// Reserved are the judges started and not yet settled.
	Reserved []Reservation `json:"reserved,omitempty"`
}

// Reservation is one running judge's estimated cost, counted against the
// budget until the judge settles it or Until passes (a judge that was
// killed never settles).
type Reservation struct {
	ID    string    `json:"id"`
	USD   float64   `json:"usd"`
	Until time.Time `json:"until"`
}

// Committed is what counts against the budget: the day's spend and the
// live reservations.
func (s StopSpend) Committed() float64 {
	total := s.USD
	for _, r := range s.Reserved {
		total += r.USD
	}
	return total
}

// DefaultStopEstimate is a judge call's estimated cost before the day has
// a call to take the mean of (a Stop judge call measured $0.012).
const DefaultStopEstimate = 0.02

// estimate is the next call's expected cost: the day's mean, else the
// default.
func (s StopSpend) estimate() float64 {
	if s.Calls > 0 && s.USD > 0 {
		return s.USD / float64(s.Calls)
	}
	return DefaultStopEstimate
}

// Today is the UTC date of now, as StopSpend.Day holds it.
func Today(now time.Time) string { return now.UTC().Format(time.DateOnly) }

// maxSpend bounds the spend file.
const maxSpend = 64 << 10

// ErrSpendDamaged is wrapped by ReadStopSpend's error for a spend file
// that cannot be read as one: the budget cannot be checked, so no judge
// starts (a damaged file used to count as nothing spent).
var ErrSpendDamaged = errors.New("damaged")

// ReadStopSpend reads today's spend of the project, with the reservations
// that have not expired; a missing or older file is zero for today. A
// damaged file is an error wrapping ErrSpendDamaged that names it.
func ReadStopSpend(projectDir string, now time.Time) (StopSpend, error) {
	today := StopSpend{Day: Today(now)}
	path := filepath.Join(projectDir, StopSpendFile)
	data, err := store.ReadRegular(path, maxSpend)
	if errors.Is(err, fs.ErrNotExist) {
		return today, nil
	}
	var s StopSpend
	if err == nil {
		err = json.Unmarshal(data, &s)
	}
	if err == nil && (s.USD < 0 || s.Calls < 0 || s.Day == "") {
		err = errors.New("negative or missing values")
	}
	if err != nil {
		return today, fmt.Errorf("the Stop judge's spend file %s is %w (%v)", path, ErrSpendDamaged, err)
	}
	if s.Day != today.Day {
		return today, nil
	}
	live := s.Reserved[:0]
	for _, r := range s.Reserved {
		if r.USD > 0 && now.Before(r.Until) {
			live = append(live, r)
		}
	}
	s.Reserved = live
	return s, nil
}

// update changes today's spend under the file's lock (waiting at most
// wait for another writer); change returns whether to write.
func update(projectDir string, now time.Time, wait time.Duration, change func(*StopSpend) bool) (StopSpend, error) {
	path := filepath.Join(projectDir, StopSpendFile)
	unlock, err := store.LockFile(path+".lock", true, wait)
	if err != nil {
		return StopSpend{}, fmt.Errorf("record the Stop judge's spend: %w", err)
	}
	defer unlock()
	s, err := ReadStopSpend(projectDir, now)
	if err != nil {
		return s, err
	}
	if !change(&s) {
		return s, nil
	}
	if err := store.WriteJSON(path, s); err != nil {
		return s, fmt.Errorf("record the Stop judge's spend: %w", err)
	}
	return s, nil
}

// ReserveStopSpend checks the budget and reserves a judge's estimated
// cost in one step under the lock, so that judges starting at once cannot
// all pass a check that only one of them should: ok is false (nothing
// written) when what is spent and reserved has reached budget. The
// reservation lasts until until at most; SettleStopSpend ends it.
func ReserveStopSpend(projectDir string, now time.Time, budget float64, id string, until time.Time, wait time.Duration) (s StopSpend, ok bool, err error) {
	s, err = update(projectDir, now, wait, func(s *StopSpend) bool {
		if s.Committed() >= budget {
			return false
		}
		s.Reserved = append(s.Reserved, Reservation{ID: id, USD: s.estimate(), Until: until})
		ok = true
		return true
	})
	return s, ok, err
}

// SettleStopSpend ends reservation id (if it is still there) and adds a
// call's actual cost (cost > 0: a call was made).
func SettleStopSpend(projectDir string, now time.Time, id string, cost float64, wait time.Duration) (StopSpend, error) {
	return update(projectDir, now, wait, func(s *StopSpend) bool {
		for i, r := range s.Reserved {
			if r.ID == id {
				s.Reserved = append(s.Reserved[:i:i], s.Reserved[i+1:]...)
				break
			}
		}
		if cost > 0 {
			s.USD += cost
			s.Calls++
		}
		return true
	})
}

// NoticeStopSpend marks today's pause told.
func NoticeStopSpend(projectDir string, now time.Time, wait time.Duration) (StopSpend, error) {
	return update(projectDir, now, wait, func(s *StopSpend) bool {
		s.Noticed = true
		return true
	})
}
