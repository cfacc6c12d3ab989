package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/rules"
)

// Chart geometry, in SVG user units. The plot maps iteration 1..n onto
// the x axis and the score 0..1 onto the y axis (1 at the top).
const (
	chartW, chartH         = 720, 280
	plotLeft, plotRight    = 48, 150
	plotTop, plotBottom    = 16, 36
	plotWidth              = chartW - plotLeft - plotRight
	plotHeight             = chartH - plotTop - plotBottom
	maxSeriesClasses       = 8
	aggregateKey, aggLabel = "aggregate", "aggregate"
)

type chart struct {
	W, H      int
	Left      int
	Right     int // x of the plot's right edge
	Top       int
	Bottom    int // y of the plot's bottom edge
	YTicks    []tick
	XTicks    []tick
	Threshold *tick
	Series    []series
	// The legend's line, marker and text x coordinates, right of the plot.
	LegendX1, LegendX2, LegendXM, LegendXT string
}

type tick struct {
	Pos   string // the x or y coordinate
	Label string
	Value string
}

type series struct {
	Key    string
	Label  string
	Class  string
	Path   string
	Points []point
	// LegendY places the series' name right of the plot.
	LegendY string
}

type point struct {
	X, Y      string
	Iteration int
	Score     string // the recorded value, full precision
	Text      string // for the tooltip
}

// ChartY is the y coordinate of a score: exported for the browser test,
// which checks each drawn point against the recorded score.
func ChartY(score float64) float64 {
	s := min(max(score, 0), 1)
	return plotTop + (1-s)*plotHeight
}

// ChartX is the x coordinate of iteration i (1-based) of n.
func ChartX(i, n int) float64 {
	if n <= 1 {
		return plotLeft + plotWidth/2
	}
	return plotLeft + float64(i-1)*plotWidth/float64(n-1)
}

func coord(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// buildChart draws the aggregate per iteration and each judge's score as
// its own series (a judge is its seat label: the panel is empanelled anew
// each iteration, so the type is what persists), with the threshold.
func buildChart(its []history.IterationView, threshold *float64) *chart {
	if len(its) == 0 {
		return nil
	}
	n := len(its)
	c := &chart{W: chartW, H: chartH, Left: plotLeft, Right: plotLeft + plotWidth, Top: plotTop, Bottom: plotTop + plotHeight}
	c.LegendX1, c.LegendX2 = coord(float64(c.Right+14)), coord(float64(c.Right+36))
	c.LegendXM, c.LegendXT = coord(float64(c.Right+25)), coord(float64(c.Right+42))
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		c.YTicks = append(c.YTicks, tick{Pos: coord(ChartY(v)), Label: rules.Num(v)})
	}
	for i := 1; i <= n; i++ {
		c.XTicks = append(c.XTicks, tick{Pos: coord(ChartX(i, n)), Label: strconv.Itoa(i)})
	}
	if threshold != nil {
		c.Threshold = &tick{Pos: coord(ChartY(*threshold)), Label: "threshold " + rules.Num(*threshold),
			Value: strconv.FormatFloat(*threshold, 'g', -1, 64)}
	}
	agg := series{Key: aggregateKey, Label: aggLabel, Class: "agg"}
	var judges []*series
	byLabel := map[string]*series{}
	for i, it := range its {
		x := ChartX(i+1, n)
		if it.Consensus != nil {
			agg.Points = append(agg.Points, pointAt(x, i+1, it.Consensus.AggregatedScore))
		}
		labels := judgeLabels(it.Judges)
		for k, j := range it.Judges {
			if j.Score == nil {
				continue
			}
			s, ok := byLabel[labels[k]]
			if !ok {
				s = &series{Key: "judge:" + labels[k], Label: labels[k],
					Class: fmt.Sprintf("s%d", len(judges)%maxSeriesClasses)}
				byLabel[labels[k]] = s
				judges = append(judges, s)
			}
			s.Points = append(s.Points, pointAt(x, i+1, *j.Score))
		}
	}
	all := []*series{&agg}
	all = append(all, judges...)
	for k, s := range all {
		s.Path = pathOf(s.Points)
		s.LegendY = coord(float64(plotTop + 8 + 18*k))
		for i := range s.Points {
			s.Points[i].Text = fmt.Sprintf("%s, iteration %d: %s", s.Label, s.Points[i].Iteration, s.Points[i].Text)
		}
		c.Series = append(c.Series, *s)
	}
	return c
}

func pointAt(x float64, iteration int, score float64) point {
	return point{X: coord(x), Y: coord(ChartY(score)), Iteration: iteration,
		Score: strconv.FormatFloat(score, 'g', -1, 64), Text: fmt.Sprintf("%.2f", score)}
}

func pathOf(ps []point) string {
	var b strings.Builder
	for i, p := range ps {
		if i == 0 {
			b.WriteString("M")
		} else {
			b.WriteString(" L")
		}
		b.WriteString(p.X + " " + p.Y)
	}
	return b.String()
}
