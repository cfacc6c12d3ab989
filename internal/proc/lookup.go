package proc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotFound means no executable was found for a command.
var ErrNotFound = errors.New("command not found")

// Executable reports whether p is a regular file with an execute bit.
func Executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// LookPath finds the executable name in the directories of pathList,
// first match winning. Relative entries (".", an empty entry, "bin") are
// never searched: tribunal runs with the repository under review as its
// working directory, which could otherwise ship a "claude", "go" or "npm"
// of its own (the reasoning of os/exec's ErrDot). This is the one PATH
// rule of every child tribunal starts.
func LookPath(name, pathList string) (string, bool) {
	for _, dir := range filepath.SplitList(pathList) {
		if !filepath.IsAbs(dir) {
			continue
		}
		if p := filepath.Join(dir, name); Executable(p) {
			return p, true
		}
	}
	return "", false
}

// Resolve finds the executable for argv0 as the child would run it. A
// name with a slash is a path (relative to dir); a bare name is searched
// by LookPath on the PATH in env, the environment the child gets — never
// this process's. Errors wrap ErrNotFound.
func Resolve(argv0, dir string, env []string) (string, error) {
	if strings.ContainsRune(argv0, filepath.Separator) {
		p := argv0
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		if !Executable(p) {
			return "", fmt.Errorf("%w: %q is not an executable file", ErrNotFound, argv0)
		}
		return p, nil
	}
	pathEnv, set := LookupEnv(env, "PATH")
	if !set {
		return "", fmt.Errorf("%w: %q (PATH is not set in the judge's environment)", ErrNotFound, argv0)
	}
	if p, ok := LookPath(argv0, pathEnv); ok {
		return p, nil
	}
	return "", fmt.Errorf("%w: %q is not on PATH", ErrNotFound, argv0)
}

// LookupEnv returns the last value of key in env, as the child would see
// it (os/exec keeps the last of duplicate entries).
func LookupEnv(env []string, key string) (string, bool) {
	val, found := "", false
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			val, found = v, true
		}
	}
	return val, found
}
