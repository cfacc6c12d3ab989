package codeguard

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const internalPrefix = "github.com/tribunal-cc/tribunal/internal/"

// recordsMayImport is every internal package internal/store/records may import:
// the formats its records embed (events' payloads, trust's result,
// severity's findings, rules' words), the nesting bound, the store's
// opens and writes, and safe text. records is the bottom owner of the
// store's names, types, readers and listers, used by the hooks, the loop
// and the commands alike; an import of anything that acts (git, the
// worktree, a model, a presenter) would drag it under every one of them.
var recordsMayImport = []string{"store/events", "nesting", "rules", "safetext", "severity", "store", "trust"}

// TestRecordsImportsOnlyTheBottom holds internal/store/records to its list.
func TestRecordsImportsOnlyTheBottom(t *testing.T) {
	for _, imp := range goList(t, "{{join .Imports \"\\n\"}}", "./internal/store/records") {
		if name, ok := strings.CutPrefix(imp, internalPrefix); ok && !slices.Contains(recordsMayImport, name) {
			t.Errorf("internal/store/records imports internal/%s, which is not on recordsMayImport: move what it needs into records or below it", name)
		}
	}
}

// TestReadersDoNotLinkThePresenter: the commands that read the store
// (history: log, show, view) and the Stop judge read it through records,
// never through internal/hook/surface, the SessionStart and UserPromptSubmit
// presenter.
func TestReadersDoNotLinkThePresenter(t *testing.T) {
	for _, pkg := range []string{"./internal/present/history", "./internal/hook/stophook", "./internal/present/report", "./internal/judging/rejudge"} {
		if slices.Contains(goList(t, "{{.ImportPath}}", "-deps", pkg), internalPrefix+"hook/surface") {
			t.Errorf("%s links internal/hook/surface: read stop files, markers and pending entries through internal/store/records", pkg)
		}
	}
}

// goList runs go list -f format args from the module root and returns
// its output's lines.
func goList(t *testing.T, format string, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-f", format}, args...)...)
	cmd.Dir = filepath.Join("..", "..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	return strings.Fields(string(out))
}
