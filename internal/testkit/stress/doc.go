// Package stress holds the multi-process stress and fault tests of the
// built binaries: concurrent writers sharing one Onlooker directory,
// SIGKILL at random moments, and full or read-only disks.
//
// The package has no code of its own. Its tests build cmd/stop-gate and
// cmd/tribunal-session, put the test binary itself on PATH as a fake
// `claude` (internal/testkit/fakeclaude), and run them as separate processes, the
// way Claude Code runs them. They are skipped under -short.
package stress
