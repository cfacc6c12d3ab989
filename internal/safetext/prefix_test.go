package safetext

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// diagnosticPrefix finds the prefix of a line tribunal prints ("tribunal: ",
// "tribunal: warning: " …) at the start of a string or of a line in it.
var diagnosticPrefix = regexp.MustCompile(`(^|[\r\n])tribunal:( |$)`)

// prefixAllowed lists the strings under internal/ that may start with
// "tribunal: ", by file and the start of the string's text. None of them is
// a diagnostic: they are payloads and records whose readers see tribunal's
// name as their source, written by the one package that owns them.
var prefixAllowed = map[string][]string{
	// Fix mode's rewake: Claude Code hands the stderr of a Stop hook that
	// exits 2 to the model as its next input. This is model input in the
	// hook protocol, not a line of the binary's diagnostics.
	"internal/hook/stophook/fix.go": {"\ntribunal: address the judge's concern"},
	// The hooks' stdout JSON: the note (additionalContext, read by the
	// model) and the prompt's line (systemMessage, shown by Claude Code in
	// the conversation) say which plugin is speaking. Both hooks share
	// these texts, so the package that builds the JSON owns them.
	"internal/hook/surface/note.go":   {"tribunal: an advisory verdict", "tribunal: %d advisory verdicts"},
	"internal/hook/surface/prompt.go": {"tribunal: advisory verdict on", "tribunal: the advisory judge reviewed", "tribunal: the advisory Stop judge paused"},
	// The session-start message about broken settings (systemMessage,
	// shown by Claude Code, never on stderr): the same kind of payload.
	"internal/hook/surface/confignote.go": {"tribunal: %d problem(s) in your tribunal settings"},
	// The inline form of a dismissal: text people write in their code's
	// comments, which internal/dismiss looks for.
	"internal/dismiss/inline.go": {"tribunal: dismiss "},
	// The report page's title (its browser tab), a document, not a line.
	"internal/present/report/task.go": {"tribunal: "},
	// Commit messages of the task branch and its snapshots: records in
	// the user's git history, read with git log.
	"internal/session/isolation.go":     {"tribunal: task %s, iteration %d"},
	"internal/git/worktree/snapshot.go": {"tribunal: snapshot of ", "tribunal: empty base"},
	"internal/git/worktree/apply.go":    {"tribunal: the working tree of "},
	// Receipt notes and the notes commits that write them: records in
	// the user's git notes, read with git log --notes=tribunal (one
	// constant, which the summaries and the commit message share).
	"internal/store/receipt/note.go": {"tribunal: "},
}

// TestPrefixesOnlyInOutput keeps the wording of tribunal's diagnostics in
// one package, internal/output, which every binary prints its stderr
// through: the rest of internal/ hands over plain text (warnings through
// Warn callbacks, progress through progress funcs, errors as errors) and
// the rest of cmd/ calls output's methods, so that a prefix is never
// printed twice nor forgotten, and one file shows every line tribunal can
// print.
func TestPrefixesOnlyInOutput(t *testing.T) {
	root := filepath.Join("..", "..")
	used := map[string]bool{}
	check := func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if filepath.ToSlash(filepath.Dir(rel)) == "internal/output" {
			return nil // the one package that words them
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !diagnosticPrefix.MatchString(s) {
				return true
			}
			for _, allowed := range prefixAllowed[rel] {
				if strings.HasPrefix(s, allowed) {
					used[rel+"\x00"+allowed] = true
					return true
				}
			}
			t.Errorf("%s: %q: a tribunal prefix outside internal/output; hand over the plain text (a Warn, progress or Warnf callback, or an error) and let internal/output prefix it", fset.Position(lit.Pos()), s)
			return true
		})
		return nil
	}
	for _, dir := range []string{"internal", "cmd"} {
		if err := filepath.WalkDir(filepath.Join(root, dir), check); err != nil {
			t.Fatal(err)
		}
	}
	// An entry that no longer matches anything would let a diagnostic back
	// in unnoticed: the list says exactly what is allowed today.
	for file, starts := range prefixAllowed {
		for _, s := range starts {
			if !used[file+"\x00"+s] {
				t.Errorf("prefixAllowed[%q] lists %q, which no string there starts with any more: remove it", file, s)
			}
		}
	}
}

func TestDiagnosticPrefix(t *testing.T) {
	for s, want := range map[string]bool{
		"tribunal: warning: x":         true,
		"\rtribunal: calibrating [":    true,
		"a\ntribunal: b":               true,
		"tribunal:":                    true,
		"tribunal-gate: unknown":       false,
		"tribunal.stop_hook.mode %q":   false,
		"must not hang tribunal: open": false,
		"tribunal:x":                   false,
	} {
		if got := diagnosticPrefix.MatchString(s); got != want {
			t.Errorf("diagnosticPrefix.MatchString(%q) = %v, want %v", s, got, want)
		}
	}
}
