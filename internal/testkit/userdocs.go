package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

// UserPages are the pages written for users, by their path from the
// repository root: the README, which keeps what a user needs on day one,
// and the docs/ pages it links for the rest. The tests that keep a
// documented example, table or link true read all of them, so an example
// stays tested whichever page it moves to.
var UserPages = []string{
	"README.md",
	"docs/usage.md",
	"docs/review-ci.md",
	"docs/configuration.md",
	"docs/judges.md",
	"docs/telemetry.md",
	"docs/development.md",
}

// Page is one user page: its path from the repository root and its text.
type Page struct {
	Path, Text string
}

// ReadUserPages reads every page of UserPages under root (the repository
// root, as a path from the test's package directory), failing the test
// when one is missing.
func ReadUserPages(t testing.TB, root string) []Page {
	t.Helper()
	pages := make([]Page, 0, len(UserPages))
	for _, p := range UserPages {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Fatalf("user page %s: %v", p, err)
		}
		pages = append(pages, Page{Path: p, Text: string(data)})
	}
	return pages
}
