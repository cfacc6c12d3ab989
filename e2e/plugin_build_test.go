package e2e

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// suiteDir holds what the whole suite shares (the built plugin); TestMain
// creates and removes it.
var suiteDir string

// repoRoot is the module root: tests run in <root>/e2e.
var repoRoot = sync.OnceValues(func() (string, error) {
	root, err := filepath.Abs("..")
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return "", fmt.Errorf("no go.mod in %q: %w", root, err)
	}
	return root, nil
})

// builtPlugin is the plugin assembled once per test binary, laid out the
// way `make plugin` lays out dist/marketplace.
type builtPlugin struct {
	// Market is the local marketplace directory (.claude-plugin/marketplace.json
	// plus the plugin folder).
	Market string
	// Dir is the plugin root: what --plugin-dir and CLAUDE_CODE_PLUGIN_DIRS name.
	Dir string
	// SessionStart is false while cmd/session-start does not exist yet.
	SessionStart bool
}

// binaries are the plugin's programs, as in the Makefile's BINARIES.
var binaries = []string{"stop-gate", "session-start", "prompt-submit", "tribunal-session", "tribunal-schema", "tribunal-mcp", "tribunal-otel"}

var buildPlugin = sync.OnceValues(func() (*builtPlugin, error) {
	root, err := repoRoot()
	if err != nil {
		return nil, err
	}
	market := filepath.Join(suiteDir, "marketplace")
	p := &builtPlugin{Market: market, Dir: filepath.Join(market, "tribunal")}
	if err := assemble(root, p.Dir); err != nil {
		return nil, err
	}
	var pkgs []string
	for _, b := range binaries {
		if _, err := os.Stat(filepath.Join(root, "cmd", b)); err != nil {
			if b == "session-start" {
				// Written concurrently by another change; its test
				// skips until it exists.
				continue
			}
			return nil, fmt.Errorf("cmd/%s is missing: %w", b, err)
		}
		if b == "session-start" {
			p.SessionStart = true
		}
		pkgs = append(pkgs, "./cmd/"+b)
	}
	gobin, err := goCommand()
	if err != nil {
		return nil, err
	}
	args := append([]string{"build", "-trimpath", "-o", filepath.Join(p.Dir, "bin") + string(filepath.Separator)}, pkgs...)
	cmd := exec.Command(gobin, args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build %s: %w\n%s", strings.Join(pkgs, " "), err, out)
	}
	if err := copyFile(filepath.Join(root, "plugin", "marketplace.json"), filepath.Join(market, ".claude-plugin", "marketplace.json")); err != nil {
		return nil, err
	}
	return p, nil
})

// goCommand finds the go tool: `go test` puts its own GOROOT/bin first on
// PATH, so LookPath finds the toolchain that is running the tests.
func goCommand() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	return "", errors.New("the go command is not on PATH")
}

// assemble copies everything but the binaries into dir, file for file as
// the Makefile's plugin-files macro does.
func assemble(root, dir string) error {
	copies := []struct{ from, to string }{
		{"plugin/.claude-plugin/plugin.json", ".claude-plugin/plugin.json"},
		{"plugin/.claude-plugin/icon.png", ".claude-plugin/icon.png"},
		{"hooks/hooks.json", "hooks/hooks.json"},
		{"config.json", "config.json"},
		{"LICENSE", "LICENSE"},
	}
	for _, c := range copies {
		if err := copyFile(filepath.Join(root, c.from), filepath.Join(dir, c.to)); err != nil {
			return err
		}
	}
	// README.md is copied when present: the plugin loads without it.
	if _, err := os.Stat(filepath.Join(root, "README.md")); err == nil {
		if err := copyFile(filepath.Join(root, "README.md"), filepath.Join(dir, "README.md")); err != nil {
			return err
		}
	}
	agents, err := filepath.Glob(filepath.Join(root, "agents", "*.md"))
	if err != nil {
		return err
	}
	for _, a := range agents {
		if err := copyFile(a, filepath.Join(dir, "agents", filepath.Base(a))); err != nil {
			return err
		}
	}
	for _, tree := range []struct{ from, to string }{{"plugin/skills", "skills"}, {"plugin/commands", "commands"}} {
		if err := copyTree(filepath.Join(root, tree.from), filepath.Join(dir, tree.to)); err != nil {
			return err
		}
	}
	return os.MkdirAll(filepath.Join(dir, "bin"), 0o755)
}

func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		return copyFile(path, filepath.Join(to, rel))
	})
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %q: %w", from, err)
	}
	return out.Close()
}
