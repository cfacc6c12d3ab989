package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/testkit"
	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

// These tests render the pages in a real headless Chromium (Debian's
// chromium package; .ci/run installs it). They are the browser tier
// (make test-browser); outside CI they skip when it is missing, under CI
// a missing browser fails them.

func chromiumPath(t *testing.T) string {
	t.Helper()
	testtier.Require(t, testtier.Browser)
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	testtier.Missing(t, testtier.Browser, "chromium", "apt-get install chromium; .ci/run installs it")
	return ""
}

// browse runs headless Chromium on url with extra flags and returns its
// stdout and the console messages it logged (console.* calls, CSP
// violations and script errors all appear there).
func browse(t *testing.T, url string, extra ...string) (string, []string) {
	t.Helper()
	bin := chromiumPath(t)
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-default-apps",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}
	args = append(append(args, extra...), url)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	var console []string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			console = append(console, l)
		}
	}
	return stdout.String(), console
}

// served serves dir over HTTP on the loopback and records every request,
// so that a test can prove the page asked for nothing but itself.
type served struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []string
}

func serve(t *testing.T, dir string) *served {
	s := &served{}
	files := http.FileServer(http.Dir(dir))
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.reqs = append(s.reqs, r.URL.Path)
		s.mu.Unlock()
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *served) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reqs)
}

// dom parses a dumped DOM and returns every element with its attributes.
type element struct {
	tag   string
	attrs map[string]string
	text  string
}

func elements(t *testing.T, dump string) []element {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(dump))
	if err != nil {
		t.Fatal(err)
	}
	var out []element
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			e := element{tag: n.Data, attrs: map[string]string{}, text: textOf(n)}
			for _, a := range n.Attr {
				e.attrs[a.Key] = a.Val
			}
			out = append(out, e)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func parseNum(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a number: %v", s, err)
	}
	return f
}

// recorded reads, straight from the task's files, what the chart and the
// grids must show: the aggregate and each judge's score per iteration,
// and each judge's criterion scores.
type recordedTask struct {
	aggregate []float64
	judge     []map[string]float64            // per iteration: judge type → score
	criteria  []map[string]map[string]float64 // per iteration: judge id → criterion → score
}

func readRecorded(t *testing.T, project string) recordedTask {
	var r recordedTask
	for _, it := range fixtureIters[:len(fixtureIterations())] {
		d := filepath.Join(project, fixtureTask, "iteration-"+it)
		var cons struct {
			Score float64 `json:"aggregated_score"`
		}
		readJSONFile(t, filepath.Join(d, "consensus.json"), &cons)
		r.aggregate = append(r.aggregate, cons.Score)
		var seats []struct {
			ID   string `json:"judge_id"`
			Type string `json:"judge_type"`
		}
		readJSONFile(t, filepath.Join(d, "jury.json"), &seats)
		js, cs := map[string]float64{}, map[string]map[string]float64{}
		for _, s := range seats {
			var v struct {
				Score    float64            `json:"score"`
				Criteria map[string]float64 `json:"criterion_scores"`
			}
			readJSONFile(t, filepath.Join(d, "verdicts", s.ID+".json"), &v)
			js[s.Type], cs[s.ID] = v.Score, v.Criteria
		}
		r.judge = append(r.judge, js)
		r.criteria = append(r.criteria, cs)
	}
	return r
}

func TestBrowserRendersTheRecordedScores(t *testing.T) {
	chromiumPath(t)
	project := writeFixture(t, "Add a greeting with a test", fixtureIterations())
	page, _ := renderFixture(t, project)
	rec := readRecorded(t, project)
	srv := serve(t, filepath.Dir(page))
	dump, console := browse(t, srv.URL+"/"+filepath.Base(page), "--dump-dom")

	if got := srv.requests(); !slices.Equal(got, []string{"/" + filepath.Base(page)}) {
		t.Errorf("the page made requests beyond itself: %q", got)
	}
	if len(console) > 0 {
		t.Errorf("console messages (errors, CSP violations):\n%s", strings.Join(console, "\n"))
	}
	els := elements(t, dump)
	var ran bool
	points := map[string]map[int]element{} // series → iteration → circle
	cells := 0
	for _, e := range els {
		if e.tag == "html" && e.attrs["data-script"] == "ran" {
			ran = true
		}
		if e.tag == "circle" && e.attrs["class"] == "pt" {
			s := e.attrs["data-series"]
			if points[s] == nil {
				points[s] = map[int]element{}
			}
			points[s][int(parseNum(t, e.attrs["data-iteration"]))] = e
		}
		if e.tag == "td" && strings.Contains(e.attrs["class"], "cell") {
			cells++
			it := iterationOfJudge(rec, e.attrs["data-judge"])
			want, ok := rec.criteria[it-1][e.attrs["data-judge"]][e.attrs["data-criterion"]]
			if !ok {
				t.Errorf("grid cell %v names no recorded criterion score", e.attrs)
				continue
			}
			if got := parseNum(t, e.attrs["data-score"]); got != want {
				t.Errorf("iteration %v cell %s/%s = %v, verdict file has %v", it, e.attrs["data-judge"], e.attrs["data-criterion"], got, want)
			}
			if shown := strings.Fields(e.text)[0]; shown != fmt.Sprintf("%.2f", want) {
				t.Errorf("cell shows %q for %v", shown, want)
			}
		}
	}
	if !ran {
		t.Error("the page's script did not run (blocked by its own CSP?)")
	}
	wantCells := 0
	for _, it := range rec.criteria {
		for _, cs := range it {
			wantCells += len(cs)
		}
	}
	if cells != wantCells {
		t.Errorf("%d grid cells, the verdict files hold %d criterion scores", cells, wantCells)
	}
	n := len(rec.aggregate)
	check := func(series string, it int, want float64) {
		t.Helper()
		c, ok := points[series][it]
		if !ok {
			t.Errorf("no point for %s at iteration %d", series, it)
			return
		}
		if got := parseNum(t, c.attrs["data-score"]); got != want {
			t.Errorf("%s iteration %d: point says %v, recorded %v", series, it, got, want)
		}
		if cy := parseNum(t, c.attrs["cy"]); math.Abs(cy-ChartY(want)) > 0.01 {
			t.Errorf("%s iteration %d: drawn at y=%v, score %v belongs at y=%v", series, it, cy, want, ChartY(want))
		}
		if cx := parseNum(t, c.attrs["cx"]); math.Abs(cx-ChartX(it, n)) > 0.01 {
			t.Errorf("%s iteration %d: drawn at x=%v, want %v", series, it, cx, ChartX(it, n))
		}
	}
	for i, a := range rec.aggregate {
		check("aggregate", i+1, a)
		for typ, s := range rec.judge[i] {
			check("judge:"+typ, i+1, s)
		}
	}
	var threshold *element
	for i, e := range els {
		if e.attrs["id"] == "threshold" {
			threshold = &els[i]
		}
	}
	if threshold == nil || parseNum(t, threshold.attrs["data-threshold"]) != 0.75 ||
		math.Abs(parseNum(t, threshold.attrs["y1"])-ChartY(0.75)) > 0.01 {
		t.Errorf("threshold line %+v, want the manifest's 0.75 at y=%v", threshold, ChartY(0.75))
	}
	if ChartY(1) >= ChartY(0.75) || ChartY(0.75) >= ChartY(0) {
		t.Errorf("higher scores must be drawn higher: y(1)=%v y(0.75)=%v y(0)=%v", ChartY(1), ChartY(0.75), ChartY(0))
	}
	if len(points) != 1+len(rec.judge[0]) {
		t.Errorf("series %v, want the aggregate and one per judge", keys(points))
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// iterationOfJudge is the iteration (1-based) whose panel had the judge:
// the panel is empanelled anew each iteration, so judge ids are unique.
func iterationOfJudge(rec recordedTask, judgeID string) int {
	for i, cs := range rec.criteria {
		if _, ok := cs[judgeID]; ok {
			return i + 1
		}
	}
	return 1
}

func TestBrowserScreenshotIsNotBlank(t *testing.T) {
	chromiumPath(t)
	project := writeFixture(t, "Add a greeting with a test", fixtureIterations())
	page, _ := renderFixture(t, project)
	shot := filepath.Join(t.TempDir(), "task.png")
	_, console := browse(t, "file://"+page, "--window-size=1200,2600", "--hide-scrollbars", "--screenshot="+shot)
	if len(console) > 0 {
		t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
	}
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	// A blank or failed render is one flat colour; the page has text, a
	// chart and coloured grids, so its luminance varies a lot and many
	// distinct colours appear.
	b := img.Bounds()
	var sum, sumSq float64
	colours := map[uint32]bool{}
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			l := 0.2126*float64(r>>8) + 0.7152*float64(g>>8) + 0.0722*float64(bl>>8)
			sum += l
			sumSq += l * l
			n++
			colours[(r>>11)<<10|(g>>11)<<5|bl>>11] = true
		}
	}
	mean := sum / float64(n)
	variance := sumSq/float64(n) - mean*mean
	if variance < 100 || len(colours) < 20 {
		t.Errorf("the screenshot looks blank: luminance variance %.1f, %d distinct colours", variance, len(colours))
	}
	art := artifactPath(t, "report-task.png")
	if err := os.WriteFile(art, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot (%dx%d, luminance variance %.0f, %d colours) kept at %s", b.Dx(), b.Dy(), variance, len(colours), art)
}

// artifactPath is where a test keeps a file for CI to collect:
// build/artifacts/ at the module root.
func artifactPath(t *testing.T, name string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "build", "artifacts"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, name)
}

const hostile = `<script>document.documentElement.setAttribute("data-pwned","1")</script><img src=x onerror="document.documentElement.setAttribute('data-pwned','2')">`

func TestBrowserHostileTextRendersAsText(t *testing.T) {
	chromiumPath(t)
	its := fixtureIterations()
	its[0].judges[0].feedback = "summary " + hostile
	its[0].judges[1].findings = `[{"severity":"critical","message":` + strconv.Quote(hostile) + `}]`
	its[0].actor = hostile
	project := writeFixture(t, "task "+hostile, its)
	page, _ := renderFixture(t, project)
	srv := serve(t, filepath.Dir(page))
	dump, console := browse(t, srv.URL+"/"+filepath.Base(page), "--dump-dom")
	if len(console) > 0 {
		t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
	}
	if got := srv.requests(); len(got) != 1 {
		t.Errorf("requests %q: the hostile <img> was loaded", got)
	}
	els := elements(t, dump)
	scripts, imgs := 0, 0
	for _, e := range els {
		switch e.tag {
		case "html":
			if e.attrs["data-pwned"] != "" {
				t.Errorf("hostile script ran: data-pwned=%q", e.attrs["data-pwned"])
			}
		case "script":
			scripts++
		case "img":
			imgs++
		}
	}
	if scripts != 1 || imgs != 0 {
		t.Errorf("%d script and %d img elements; only the page's own script may exist", scripts, imgs)
	}
	for _, where := range []string{`class="feedback">summary `, `<h1>`, `<span class="l ctx">`} {
		i := strings.Index(dump, where)
		if i < 0 || !strings.Contains(dump[i:], "&lt;script&gt;document.documentElement") {
			t.Errorf("the hostile text is not shown as text after %q", where)
		}
	}
}

func TestBrowserDamagedRecordShowsBanner(t *testing.T) {
	chromiumPath(t)
	project := writeFixture(t, "Add a greeting with a test", fixtureIterations())
	it1 := filepath.Join(project, fixtureTask, "iteration-"+fixtureIters[0])
	testkit.WriteFile(t, filepath.Join(it1, "verdicts", fixtureIterations()[0].judges[1].id+".json"), `{"score": 0.9,`)
	os.Remove(filepath.Join(project, fixtureTask, "iteration-"+fixtureIters[1], "consensus.json"))
	page, v := renderFixture(t, project)
	if len(v.Problems) != 2 {
		t.Fatalf("problems %v", v.Problems)
	}
	dump, console := browse(t, "file://"+page, "--dump-dom")
	if len(console) > 0 {
		t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
	}
	var banner *element
	els := elements(t, dump)
	for i, e := range els {
		if e.attrs["id"] == "damaged" {
			banner = &els[i]
		}
	}
	if banner == nil || !strings.Contains(banner.text, "This record is damaged:") ||
		!strings.Contains(banner.text, "consensus.json\": missing") || !strings.Contains(banner.text, "not valid JSON") {
		t.Fatalf("no damage banner naming both files: %+v", banner)
	}
	// What could be read is still there: iteration 3's grid and the chart.
	found := false
	for _, e := range els {
		if e.tag == "circle" && e.attrs["data-series"] == "aggregate" && e.attrs["data-iteration"] == "3" {
			found = true
		}
	}
	if !found {
		t.Error("the chart lost the readable iterations")
	}
}

func TestBrowserIndexFiltersByOutcome(t *testing.T) {
	chromiumPath(t)
	project := writeFixture(t, "Add a greeting with a test", fixtureIterations())
	// A second task that never finished, and an advisory verdict.
	testkit.WriteFile(t, filepath.Join(project, "01JAAAAAAAAAAAAAAAAAAAAAZZ", "manifest.json"), `{"task_id":"01JAAAAAAAAAAAAAAAAAAAAAZZ","task_summary":"still going"}`)
	testkit.WriteFile(t, filepath.Join(project, "stop-sess-9.json"), `{"task_id":"01JAAAAAAAAAAAAAAAAAAAAAY1","session_id":"sess-9","outcome":"rejected","verdict":{"score":0.4,"passed":false,"judge_type":"standard","feedback_summary":"tests fail"},"mode":"stop-advisory","fingerprint":"f","written_at":"2026-05-24T09:30:00Z"}`)
	res := history.Log(project, "", history.LogOptions{})
	if len(res.Entries) != 3 || len(res.Problems) != 0 {
		t.Fatalf("log %+v", res)
	}
	// Not index.html: the test server would redirect that name to "/".
	out := filepath.Join(t.TempDir(), "history.html")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := Index(f, IndexInput{Project: project, Log: res, Now: fixtureNow, Href: func(e history.Entry) string { return e.TaskID + ".html" }}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	srv := serve(t, filepath.Dir(out))
	for _, c := range []struct {
		hash  string
		shown []string
	}{
		{"", []string{"accepted", "incomplete", "rejected"}},
		{"#outcome=accepted", []string{"accepted"}},
		{"#outcome=rejected", []string{"rejected"}},
	} {
		dump, console := browse(t, srv.URL+"/history.html"+c.hash, "--dump-dom")
		if len(console) > 0 {
			t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
		}
		var shown []string
		links := 0
		for _, e := range elements(t, dump) {
			if e.tag == "tr" && strings.Contains(e.attrs["class"], "record") {
				if _, hidden := e.attrs["hidden"]; !hidden {
					shown = append(shown, e.attrs["data-outcome"])
				}
			}
			if e.tag == "a" && e.attrs["href"] == fixtureTask+".html" {
				links++
			}
		}
		slices.Sort(shown)
		if !slices.Equal(shown, c.shown) {
			t.Errorf("index%s shows %v, want %v", c.hash, shown, c.shown)
		}
		if links != 1 {
			t.Errorf("index%s links the task's page %d times, want 1", c.hash, links)
		}
	}
	for _, r := range srv.requests() {
		if r != "/history.html" {
			t.Errorf("the index requested %q", r)
		}
	}
}
