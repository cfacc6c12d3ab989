package judging

import (
	"os"
	"runtime"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
)

// Bash states a judge's report and call records keep (records.CallMeta).
const (
	bashSandboxed = "sandboxed"
	bashWithheld  = "withheld"
)

// confineBash applies the Bash rule of docs/security.md §2.4 to a claude
// judge's call: a judge whose agent offers Bash (the adversarial one) gets
// it only inside Claude Code's sandbox, confined to the work's directory
// with no network; where no sandbox can run, it gets no Bash and the run
// says so once. It returns the call and the state to record ("" for a
// judge without Bash, or one that another provider runs).
func (r *round) confineBash(judgeType string, c claude.Call) (claude.Call, string) {
	if !c.HasBash() || !r.prov.judges[judgeType].IsClaude() {
		return c, ""
	}
	r.bash.Do(func() {
		check := r.env.Sandbox
		if check == nil {
			check = func() claude.SandboxSupport {
				return claude.CheckSandbox(runtime.GOOS, r.childPath(), fileExists)
			}
		}
		r.bashOK = check()
	})
	if r.bashOK.OK {
		return c.WithSandboxedBash(), bashSandboxed
	}
	note := "the " + judgeType + " judge ran without Bash: " + r.bashOK.Why
	if r.bashOK.Install != "" {
		note += "; hint: " + r.bashOK.Install
	}
	r.rec.BashNote(note)
	return c.WithoutBash(), bashWithheld
}

// childPath is the PATH a claude child gets: Environ's, else the
// process's own.
func (j *Jury) childPath() string {
	for i := len(j.env.Environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(j.env.Environ[i], "PATH="); ok {
			return v
		}
	}
	return j.env.Getenv("PATH")
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
