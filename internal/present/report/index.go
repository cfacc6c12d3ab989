package report

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

type indexPage struct {
	Page     head
	Project  string
	Total    int
	Outcomes []outcomeCount
	Timeline *timeline
	Rows     []indexRow
	Damaged  []string
	// Costs are the records' cost per UTC day and kind (history.CostTotals).
	Costs []costRow
}

// costRow is one line of the index's cost table.
type costRow struct {
	Day, Kind, Cost, Note string
	Records               int
	Total                 bool
}

// costRows renders the totals with a total line after each day's kinds.
func costRows(ts []history.CostTotal) []costRow {
	var out []costRow
	for i, t := range ts {
		r := costRow{Day: t.Day, Kind: t.Kind, Records: t.Records, Cost: fmt.Sprintf("$%.4f", t.USD)}
		if t.NoCost > 0 {
			r.Note = fmt.Sprintf("%d without a recorded cost", t.NoCost)
		}
		out = append(out, r)
		if i+1 == len(ts) || ts[i+1].Day != t.Day {
			sum, n := 0.0, 0
			for _, u := range ts {
				if u.Day == t.Day {
					sum, n = sum+u.USD, n+u.Records
				}
			}
			out = append(out, costRow{Day: t.Day, Kind: "total", Records: n, Cost: fmt.Sprintf("$%.4f", sum), Total: true})
		}
	}
	return out
}

type outcomeCount struct {
	Outcome, Glyph, Class string
	Count                 int
}

type indexRow struct {
	Anchor       string
	Kind         string
	When         string
	Outcome      string
	OutcomeClass string
	Glyph        string
	Score        string
	Iterations   string
	Cost         string
	ID           string
	ShortID      string
	Href         string
	Summary      string
	Source       string
}

type timeline struct {
	W, H, Left, Right, Axis int
	TaskY, AdvisoryY        int
	Ticks                   []tick
	Dots                    []dot
}

type dot struct {
	X, Y, R      string
	Class, Title string
	Href, Kind   string
	Outcome      string
}

// Timeline geometry: lane labels left of the plot, tasks above advisory
// verdicts, the time axis below; margins wide enough for centred dates.
const (
	timelineW, timelineH = 720, 96
	tlLeft, tlRight      = 84, 44
	tlTaskY, tlAdvisoryY = 22, 52
)

func buildIndex(in IndexInput) indexPage {
	p := indexPage{Page: newHead("tribunal history", in.Now), Project: in.Project, Total: in.Log.Total}
	counts := map[string]int{}
	for _, e := range in.Log.Entries {
		counts[e.Outcome]++
		r := indexRow{Kind: e.Kind, When: e.Time.UTC().Format("2006-01-02 15:04Z"), Outcome: e.Outcome,
			OutcomeClass: outcomeClass(e.Outcome), Glyph: rules.Glyph(e.Outcome), Score: "—", Iterations: "—",
			Cost: "—", ID: e.ID, ShortID: e.ShortID, Summary: oneLine(e.Summary, 160), Source: e.Source}
		if r.ShortID == "" {
			r.ShortID = e.ID
		}
		r.Anchor = e.Kind + "-" + e.ID
		if e.FinalScore != nil {
			r.Score = fmt.Sprintf("%.2f", *e.FinalScore)
		}
		if e.Iterations != nil {
			r.Iterations = fmt.Sprint(*e.Iterations)
		}
		if e.CostUSD != nil {
			r.Cost = fmt.Sprintf("$%.4f", *e.CostUSD)
		}
		if in.Href != nil {
			r.Href = in.Href(e)
		}
		p.Rows = append(p.Rows, r)
	}
	var names []string
	for o := range counts {
		names = append(names, o)
	}
	sort.Strings(names)
	for _, o := range names {
		p.Outcomes = append(p.Outcomes, outcomeCount{Outcome: o, Glyph: rules.Glyph(o), Class: outcomeClass(o), Count: counts[o]})
	}
	p.Timeline = buildTimeline(in.Log.Entries, p.Rows)
	p.Costs = costRows(history.CostTotals(in.Log.Entries))
	for _, pr := range in.Log.Problems {
		p.Damaged = append(p.Damaged, pr.Error())
	}
	return p
}

// buildTimeline places every record on a time axis: tasks on the upper
// lane, advisory verdicts on the lower, coloured by outcome.
func buildTimeline(es []history.Entry, rows []indexRow) *timeline {
	if len(es) == 0 {
		return nil
	}
	first, last := es[0].Time, es[0].Time
	for _, e := range es {
		if e.Time.Before(first) {
			first = e.Time
		}
		if e.Time.After(last) {
			last = e.Time
		}
	}
	span := last.Sub(first)
	if span <= 0 {
		span = time.Hour
		first = first.Add(-span / 2)
	}
	width := float64(timelineW - tlLeft - tlRight)
	x := func(t time.Time) float64 { return tlLeft + width*float64(t.Sub(first))/float64(span) }
	tl := &timeline{W: timelineW, H: timelineH, Left: tlLeft, Right: timelineW - tlRight, Axis: timelineH - 26,
		TaskY: tlTaskY, AdvisoryY: tlAdvisoryY}
	for i := 0; i <= 4; i++ {
		t := first.Add(span * time.Duration(i) / 4)
		tl.Ticks = append(tl.Ticks, tick{Pos: coord(x(t)), Label: tickLabel(t, span)})
	}
	for i, e := range es {
		y, r := float64(tlTaskY), "6"
		if e.Kind == history.KindAdvisory {
			y, r = tlAdvisoryY, "5"
		}
		tl.Dots = append(tl.Dots, dot{X: coord(x(e.Time)), Y: coord(y), R: r, Class: outcomeClass(e.Outcome),
			Title: fmt.Sprintf("%s %s %s — %s", rows[i].When, e.Kind, e.Outcome, oneLine(e.Summary, 80)),
			Href:  "#" + rows[i].Anchor, Kind: e.Kind, Outcome: e.Outcome})
	}
	return tl
}

func tickLabel(t time.Time, span time.Duration) string {
	if span < 7*24*time.Hour {
		return t.UTC().Format("Jan 2 15:04")
	}
	return t.UTC().Format("2006-01-02")
}

// outcomeClass is the CSS class of an outcome's colour.
func outcomeClass(o string) string {
	switch o {
	case "accepted":
		return "o-accepted"
	case "rejected", "exhausted_iterations":
		return "o-rejected"
	case history.OutcomeIncomplete:
		return "o-incomplete"
	}
	return "o-aborted"
}

type advisoryPage struct {
	Page         head
	IndexHref    string
	Outcome      string
	OutcomeClass string
	Glyph        string
	Score        string
	Facts        []fact
	Feedback     string
	Damaged      []string
	// DiffFiles is the diff the judge was shown, file by file.
	DiffFiles []diffFile
}

func buildAdvisory(v *history.AdvisoryView, indexHref string, now time.Time) advisoryPage {
	p := advisoryPage{Page: newHead("tribunal advisory verdict "+v.SessionName(), now), IndexHref: indexHref,
		Outcome: v.Outcome, OutcomeClass: outcomeClass(v.Outcome), Glyph: rules.Glyph(v.Outcome),
		Score: fmt.Sprintf("%.2f", v.Score), Feedback: strings.TrimSpace(v.Feedback), DiffFiles: diffFiles(v.Diff)}
	add := func(l, val string) {
		if val != "" {
			p.Facts = append(p.Facts, fact{l, val})
		}
	}
	if v.Outcome == records.OutcomeFailed || v.Outcome == records.OutcomeCancelled {
		p.Score, p.Feedback = "—", "No verdict: "+strings.TrimSpace(v.Error)
	}
	if v.Rewake {
		add("fix mode", "handed back to the model")
	}
	add("session", v.SessionID)
	add("written", v.WrittenAt.UTC().Format("2006-01-02 15:04Z"))
	add("judge", v.JudgeType)
	add("model", v.Model)
	if v.Confidence != nil {
		add("confidence", fmt.Sprintf("%.2f", *v.Confidence))
	}
	if v.CostUSD != nil {
		add("cost", fmt.Sprintf("$%.4f", *v.CostUSD))
	}
	if v.DurationMS != nil {
		add("duration", duration(*v.DurationMS))
	} else if v.Advisory.DurationMS != nil {
		add("duration", duration(*v.Advisory.DurationMS))
	}
	add("shown", v.Shown())
	add("task id", v.TaskID)
	add("fingerprint", v.Fingerprint)
	add("file", v.Path)
	for _, pr := range v.Problems {
		p.Damaged = append(p.Damaged, pr.Error())
	}
	return p
}
