package main

import (
	"os"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
)

// callsModels names the commands that call a model, which the master
// switch refuses (spec §2.13); the MCP server's judge tool is `review`
// run in process, so it is refused by the same check.
var callsModels = map[string]bool{
	"run": true, "review": true, "judge": true, "calibrate": true, "rejudge": true, "tune": true,
}

// callsModel says whether command name, given args, is one the master
// switch refuses before it starts: `tune apply` only puts a shipped rubric
// in place, with no model call, so it works as every reading command
// does; `review` asks once it knows whose change it judges (reviewCmd).
func callsModel(name string, args []string) bool {
	if name == "tune" && len(args) > 0 && args[0] == "apply" || name == "review" {
		return false
	}
	return callsModels[name]
}

// offHint is the hint under every line that says tribunal is turned off.
const offHint = "set \"tribunal\": {\"enabled\": true} in that file, or remove the key, to turn it back on"

// disabledBy returns the settings file that turned tribunal off for the
// repository at root (tribunal.enabled false), or "" when it is on; root
// "" reads the plugin's and the user's settings only. Its configuration
// warnings are left to the command, which loads the settings again.
func (c *cli) disabledBy(root string) string {
	src := config.Sources{PluginRoot: c.getenv("CLAUDE_PLUGIN_ROOT"), Home: c.home(), WorktreeRoot: root}
	if off, from := config.Load(src).Disabled(); off {
		return from
	}
	return ""
}

// workRoot is the repository root of the working directory, "" outside one.
func workRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	root, err := projectkey.FindWorktreeRoot(dir)
	if err != nil {
		return ""
	}
	return root
}

// refuseDisabled says why a command that calls a model will not run, in
// one line naming the layer that turned tribunal off, and returns
// exitUsage; it returns -1 when tribunal is on. root is the repository
// whose settings count (disabledBy).
func (c *cli) refuseDisabled(name, root string) int {
	from := c.disabledBy(root)
	if from == "" {
		return -1
	}
	c.errorf("%s: tribunal is turned off (tribunal.enabled is false in %s)", name, from)
	c.hint(offHint)
	return exitUsage
}
