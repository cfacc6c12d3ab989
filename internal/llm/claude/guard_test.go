package claude

import (
	"testing"

	"github.com/tribunal-cc/tribunal/internal/hook/hookio"
)

// The marker the runner sets and the marker every hook checks must be the
// same variable: hookio keeps its own constant so the hooks' cheapest path
// need not link the runner, and this test keeps the two from diverging.
func TestGuardEnvMatchesHooks(t *testing.T) {
	if GuardEnv != hookio.GuardEnv {
		t.Fatalf("claude.GuardEnv %q != hookio.GuardEnv %q", GuardEnv, hookio.GuardEnv)
	}
	env := ChildEnv([]string{"PATH=/bin", GuardEnv + "=0"}, 0)
	if env[len(env)-1] != hookio.GuardEnv+"=1" || len(env) != 2 {
		t.Errorf("ChildEnv = %q: want the parent's marker replaced by %s=1", env, hookio.GuardEnv)
	}
}
