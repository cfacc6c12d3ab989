package claude

import (
	"encoding/json"
	"slices"

	"github.com/tribunal-cc/tribunal/internal/proc"
)

// BashTool is Claude Code's shell tool: the one judge tool that can reach
// past the working directory, so it runs only inside Claude Code's own
// sandbox (Call.SandboxBash) or not at all (WithoutBash).
const BashTool = "Bash"

// SystemReadDirs are the directories a sandboxed Bash may read besides the
// call's working directory: the system's programs, libraries and their
// configuration, so that a judge can run the tools and tests of the work.
// Everything else — the user's home, the main repository's working tree,
// $ONLOOKER_DIR, /tmp — is unreadable. A directory missing on a machine is
// ignored by the CLI.
var SystemReadDirs = []string{"/bin", "/sbin", "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix"}

// sandboxSettings is the --settings layer of a call whose Bash runs in
// Claude Code's sandbox (2.1.332, keys checked against the CLI's own
// settings schema and by e2e TestAdversarialJudgeBashIsSandboxed):
//   - enabled with failIfUnavailable: a sandbox that cannot start ends the
//     child at startup, before any model call, instead of running Bash
//     unconfined;
//   - autoAllowBashIfSandboxed: a sandboxed command needs no approval, so
//     Bash is never pre-approved (--allowedTools) and an unsandboxed one
//     would be denied in -p mode;
//   - allowUnsandboxedCommands false: the tool's dangerouslyDisableSandbox
//     parameter is ignored;
//   - network with no allowed domain: every host is refused;
//   - filesystem: writes go only to the working directory (and the
//     sandbox's own temp directory), the CLI's default; reads are a deny
//     list in Claude Code, so the whole disk is denied ("/") and the
//     working directory and SystemReadDirs are read back in (allowRead
//     takes precedence over denyRead).
type sandboxSettings struct {
	DisableAllHooks bool        `json:"disableAllHooks"`
	Sandbox         sandboxKeys `json:"sandbox"`
}

type sandboxKeys struct {
	Enabled                  bool              `json:"enabled"`
	FailIfUnavailable        bool              `json:"failIfUnavailable"`
	AutoAllowBashIfSandboxed bool              `json:"autoAllowBashIfSandboxed"`
	AllowUnsandboxedCommands bool              `json:"allowUnsandboxedCommands"`
	Network                  sandboxNetwork    `json:"network"`
	Filesystem               sandboxFilesystem `json:"filesystem"`
}

type sandboxNetwork struct {
	AllowedDomains []string `json:"allowedDomains"`
}

type sandboxFilesystem struct {
	DenyRead  []string `json:"denyRead"`
	AllowRead []string `json:"allowRead"`
}

// Settings is the --settings value of c: the recursion guard
// (DisableHooksSettings) and, when c.SandboxBash, the sandbox confining
// its Bash to c.Dir.
func Settings(c Call) string {
	if !c.SandboxBash {
		return DisableHooksSettings
	}
	var read []string
	if c.Dir != "" {
		read = append(read, c.Dir)
	}
	read = append(read, SystemReadDirs...)
	s := sandboxSettings{DisableAllHooks: true, Sandbox: sandboxKeys{
		Enabled: true, FailIfUnavailable: true, AutoAllowBashIfSandboxed: true,
		Network:    sandboxNetwork{AllowedDomains: []string{}},
		Filesystem: sandboxFilesystem{DenyRead: []string{"/"}, AllowRead: read},
	}}
	data, err := json.Marshal(s)
	if err != nil {
		// Strings and booleans only: Marshal cannot fail.
		panic("claude: encode sandbox settings: " + err.Error())
	}
	return string(data)
}

// HasBash reports whether c offers the Bash tool. A nil Tools is Claude
// Code's default set, which includes it.
func (c Call) HasBash() bool {
	return c.Tools == nil || slices.Contains(c.Tools, BashTool)
}

// WithSandboxedBash returns c with its Bash confined by Claude Code's
// sandbox to c.Dir, with no network (see Settings). Bash is taken off the
// pre-approved tools: the sandbox approves what it confines.
func (c Call) WithSandboxedBash() Call {
	c.SandboxBash = true
	c.AllowedTools = without(c.AllowedTools, BashTool)
	return c
}

// WithoutBash returns c without the Bash tool: a judge that would have had
// it where no sandbox can confine it.
func (c Call) WithoutBash() Call {
	c.SandboxBash = false
	c.Tools = without(c.Tools, BashTool)
	if c.Tools == nil {
		c.Tools = []string{}
	}
	c.AllowedTools = without(c.AllowedTools, BashTool)
	return c
}

func without(list []string, name string) []string {
	if list == nil {
		return nil
	}
	return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return s == name })
}

// SandboxSupport says whether Claude Code's Bash sandbox can run here.
type SandboxSupport struct {
	OK bool
	// Why says what is missing when !OK ("no sandbox (bubblewrap) on this
	// machine"); Install how to get it, "" when nothing can be installed.
	Why, Install string
}

// linuxInstall is the hint for a Linux machine without the sandbox's
// programs (Debian and Ubuntu package names).
const linuxInstall = "apt-get install bubblewrap socat"

// CheckSandbox tells cheaply, before any call, whether Claude Code's
// sandbox can start for a child whose PATH is pathEnv: on Linux it needs
// bwrap and socat on that PATH (the CLI looks them up there), on macOS the
// system's sandbox-exec (Seatbelt); no other platform has one. exists
// reports whether a file exists. A bwrap that is present but cannot run
// (user namespaces disabled) is not detected here: the child then stops
// at startup (failIfUnavailable), a failed judge, never an unconfined one.
func CheckSandbox(goos, pathEnv string, exists func(string) bool) SandboxSupport {
	switch goos {
	case "linux":
		for _, p := range []struct{ prog, pkg string }{{"bwrap", "bubblewrap"}, {"socat", "socat"}} {
			if _, ok := proc.LookPath(p.prog, pathEnv); !ok {
				return SandboxSupport{Why: "no sandbox (" + p.pkg + ") on this machine", Install: linuxInstall}
			}
		}
		return SandboxSupport{OK: true}
	case "darwin":
		if exists("/usr/bin/sandbox-exec") {
			return SandboxSupport{OK: true}
		}
		return SandboxSupport{Why: "no sandbox (sandbox-exec) on this machine"}
	}
	return SandboxSupport{Why: "Claude Code has no Bash sandbox on " + goos}
}
