// Package version holds the build's version string, set by the linker.
package version

// Version is overwritten with -ldflags "-X …/internal/version.Version=…".
var Version = "dev"
