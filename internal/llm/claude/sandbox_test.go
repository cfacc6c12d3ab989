package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// settingsArg is the --settings value of args.
func settingsArg(t *testing.T, args []string) string {
	t.Helper()
	i := slices.Index(args, "--settings")
	if i < 0 || i+1 >= len(args) {
		t.Fatalf("no --settings in %q", args)
	}
	if strings.Count(strings.Join(args, "\x00"), "--settings") != 1 {
		t.Fatalf("--settings given twice: %q", args)
	}
	return args[i+1]
}

// TestBashFlags: the flags of a judge whose agent has Bash, sandboxed or
// not, and of one without Bash.
func TestBashFlags(t *testing.T) {
	base := Call{Role: "judge", Tools: []string{"Read", "Grep", "Glob", "Bash"}, AllowedTools: []string{"Bash"}, StrictMCP: true, Dir: "/work/task"}
	for _, tc := range []struct {
		name         string
		call         Call
		tools        string
		allowed      bool // --allowedTools present
		sandbox      bool
		wantSettings string
	}{
		{"unconfined (before the rule)", base, "Read,Grep,Glob,Bash", true, false, DisableHooksSettings},
		{"sandboxed", base.WithSandboxedBash(), "Read,Grep,Glob,Bash", false, true, ""},
		{"withheld", base.WithoutBash(), "Read,Grep,Glob", false, false, DisableHooksSettings},
		{"withheld from the default tool set", Call{Role: "judge"}.WithoutBash(), "", false, false, DisableHooksSettings},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := Args(tc.call)
			i := slices.Index(args, "--tools")
			if i < 0 || args[i+1] != tc.tools {
				t.Errorf("--tools in %q, want %q", args, tc.tools)
			}
			if got := slices.Contains(args, "--allowedTools"); got != tc.allowed {
				t.Errorf("--allowedTools present %v, want %v: %q", got, tc.allowed, args)
			}
			s := settingsArg(t, args)
			if !tc.sandbox {
				if s != tc.wantSettings {
					t.Errorf("--settings %s, want %s", s, tc.wantSettings)
				}
				return
			}
			var got struct {
				DisableAllHooks bool `json:"disableAllHooks"`
				Sandbox         struct {
					Enabled, FailIfUnavailable, AutoAllowBashIfSandboxed bool
					AllowUnsandboxedCommands                             *bool
					Network                                              struct{ AllowedDomains []string }
					Filesystem                                           struct{ DenyRead, AllowRead, AllowWrite []string }
				} `json:"sandbox"`
			}
			if err := json.Unmarshal([]byte(s), &got); err != nil {
				t.Fatalf("--settings %s: %v", s, err)
			}
			sb := got.Sandbox
			switch {
			case !got.DisableAllHooks:
				t.Error("the sandbox settings dropped the recursion guard (disableAllHooks)")
			case !sb.Enabled || !sb.FailIfUnavailable || !sb.AutoAllowBashIfSandboxed:
				t.Errorf("sandbox not enabled, fail-closed and auto-approving: %s", s)
			case sb.AllowUnsandboxedCommands == nil || *sb.AllowUnsandboxedCommands:
				t.Errorf("allowUnsandboxedCommands must be false: %s", s)
			case sb.Network.AllowedDomains == nil || len(sb.Network.AllowedDomains) != 0:
				t.Errorf("network must allow no domain: %s", s)
			case !slices.Equal(sb.Filesystem.DenyRead, []string{"/"}):
				t.Errorf("denyRead %q, want the whole disk", sb.Filesystem.DenyRead)
			case len(sb.Filesystem.AllowWrite) != 0:
				t.Errorf("allowWrite widens the writable set: %q", sb.Filesystem.AllowWrite)
			case !slices.Equal(sb.Filesystem.AllowRead, append([]string{"/work/task"}, SystemReadDirs...)):
				t.Errorf("allowRead %q, want the working directory and the system directories", sb.Filesystem.AllowRead)
			}
			for _, d := range sb.Filesystem.AllowRead {
				if d == "/" || d == "/home" || d == "/root" || d == "/tmp" || d == "/var" {
					t.Errorf("allowRead re-opens %s", d)
				}
			}
		})
	}
}

func TestCheckSandbox(t *testing.T) {
	full, noSocat, none := t.TempDir(), t.TempDir(), t.TempDir()
	for dir, progs := range map[string][]string{full: {"bwrap", "socat"}, noSocat: {"bwrap"}} {
		for _, p := range progs {
			if err := os.WriteFile(filepath.Join(dir, p), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	yes := func(string) bool { return true }
	no := func(string) bool { return false }
	for _, tc := range []struct {
		goos, path string
		exists     func(string) bool
		ok         bool
		why        string
	}{
		{"linux", full, no, true, ""},
		{"linux", none + string(os.PathListSeparator) + full, no, true, ""},
		{"linux", none, yes, false, "no sandbox (bubblewrap) on this machine"},
		{"linux", noSocat, yes, false, "no sandbox (socat) on this machine"},
		{"linux", "", yes, false, "no sandbox (bubblewrap) on this machine"},
		{"darwin", "", yes, true, ""},
		{"darwin", full, no, false, "no sandbox (sandbox-exec) on this machine"},
		{"windows", full, yes, false, "Claude Code has no Bash sandbox on windows"},
	} {
		got := CheckSandbox(tc.goos, tc.path, tc.exists)
		if got.OK != tc.ok || got.Why != tc.why {
			t.Errorf("CheckSandbox(%s, %q) = %+v, want ok %v why %q", tc.goos, tc.path, got, tc.ok, tc.why)
		}
		if tc.goos == "linux" && !tc.ok && got.Install != "apt-get install bubblewrap socat" {
			t.Errorf("linux without the sandbox: install hint %q", got.Install)
		}
	}
}
