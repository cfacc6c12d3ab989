package claude

import (
	"testing"

	"github.com/tribunal-cc/tribunal/internal/proc/childenv"
)

// Every child the runner starts carries the one recursion-guard marker
// the hooks check (childenv.GuardEnv), replacing any value the parent had.
func TestChildEnvSetsTheGuard(t *testing.T) {
	env := ChildEnv([]string{"PATH=/bin", childenv.GuardEnv + "=0"}, 0)
	if env[len(env)-1] != childenv.GuardEnv+"=1" || len(env) != 2 {
		t.Errorf("ChildEnv = %q: want the parent's marker replaced by %s=1", env, childenv.GuardEnv)
	}
}
