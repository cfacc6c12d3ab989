// Package version holds tribunal's version, which is the plugin's.
package version

// Version is the version in plugin/.claude-plugin/plugin.json, the one
// source of truth: TestVersionIsTheManifests keeps this default equal to
// it, and the Makefile passes the manifest's value with -ldflags "-X" so a
// release build cannot drift either.
var Version = "2.0.0"
