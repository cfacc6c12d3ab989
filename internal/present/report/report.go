// Package report renders recorded tribunal tasks and advisory verdicts as
// self-contained HTML pages (inline CSS, script and SVG; no network) from
// what internal/present/history reads.
package report

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"sync"
	"time"

	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
)

//go:embed assets/*
var assets embed.FS

// The page's only style and script, inline. The Content-Security-Policy
// allows exactly these two blocks by hash and nothing else: no network
// fetch, no other script (a model's output that slipped through escaping
// still could not run), no plugin, no form target, no base URL.
//
// All of it is built on first use: parsing the templates is most of a
// millisecond that every other command would otherwise pay at start.
type pageAssets struct {
	css, js, csp string
	pages        *template.Template
}

var assetsOnce = sync.OnceValue(func() pageAssets {
	a := pageAssets{css: mustAsset("assets/page.css"), js: mustAsset("assets/page.js")}
	a.csp = fmt.Sprintf("default-src 'none'; style-src '%s'; script-src '%s'; img-src data:; base-uri 'none'; form-action 'none'",
		hashSource(a.css), hashSource(a.js))
	a.pages = template.Must(template.New("").Funcs(template.FuncMap{
		// words is an outcome as people read it; data-outcome keeps the
		// machine value the filters and tests select on.
		"words": rules.OutcomeWords,
	}).ParseFS(assets, "assets/*.tmpl"))
	return a
})

func mustAsset(name string) string {
	b, err := assets.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func hashSource(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// CSP is the page's Content-Security-Policy, for tests and docs.
func CSP() string { return assetsOnce().csp }

// head is what every page's <head> needs.
type head struct {
	Title string
	CSP   string
	CSS   template.CSS
	JS    template.JS
	// Generated is when the page was written, shown in its footer.
	Generated string
}

func newHead(title string, now time.Time) head {
	a := assetsOnce()
	return head{Title: title, CSP: a.csp, CSS: template.CSS(a.css), JS: template.JS(a.js),
		Generated: now.UTC().Format("2006-01-02 15:04:05Z")}
}

// TaskInput is what a task page is rendered from.
type TaskInput struct {
	View *history.TaskView
	// Ledger is the project's ledger read for display; nil when it has
	// none. Only the task's own entries are shown.
	Ledger *ledger.Audit
	// IndexHref links back to the project's index page ("" for none).
	IndexHref string
	Now       time.Time
}

// Task writes the page of one task. The page shows what could be read;
// the view's problems appear in a "this record is damaged" banner.
func Task(w io.Writer, in TaskInput) error {
	p := buildTask(in)
	if err := assetsOnce().pages.ExecuteTemplate(w, "task.html.tmpl", p); err != nil {
		return fmt.Errorf("render task %s: %w", in.View.TaskID, err)
	}
	return nil
}

// IndexInput is what a project's index page is rendered from.
type IndexInput struct {
	Project string
	Log     history.LogResult
	// Href gives the link of a record's page ("" for none).
	Href func(e history.Entry) string
	Now  time.Time
}

// Index writes the project's index page: every task and advisory verdict
// on a timeline and in a table, filterable by outcome.
func Index(w io.Writer, in IndexInput) error {
	p := buildIndex(in)
	if err := assetsOnce().pages.ExecuteTemplate(w, "index.html.tmpl", p); err != nil {
		return fmt.Errorf("render the index: %w", err)
	}
	return nil
}

// Advisory writes the page of one advisory verdict.
func Advisory(w io.Writer, v *history.AdvisoryView, indexHref string, now time.Time) error {
	p := buildAdvisory(v, indexHref, now)
	if err := assetsOnce().pages.ExecuteTemplate(w, "advisory.html.tmpl", p); err != nil {
		return fmt.Errorf("render the advisory verdict %s: %w", v.Name, err)
	}
	return nil
}
