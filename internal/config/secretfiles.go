package config

import (
	"encoding/json"
	"fmt"

	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
)

// secretFilesKey is tribunal.secret_files: patterns of untracked files to
// leave out of task snapshots, diffs, prompts and records, on top of the
// built-in list (internal/git/secretfiles). Unlike every other key, layers do
// not override it: each adds its patterns to those below, so a repository
// can make tribunal leave out more of its files, never fewer (it may only
// make things safer).
const secretFilesKey = "secret_files"

// collectSecretFiles appends the patterns layer t (a merged "tribunal"
// object of one layer, already pruned to the schema) adds. Entries that are
// not strings are skipped with a warning naming the file.
func collectSecretFiles(acc []string, t *node, warn func(string)) []string {
	n := t.get(secretFilesKey)
	if n.isNull() {
		return acc
	}
	var items []json.RawMessage
	if err := json.Unmarshal(n.raw, &items); err != nil {
		return acc
	}
	for i, raw := range items {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			warn(fmt.Sprintf("%s: tribunal.%s[%d] is not a string; ignored", n.src, secretFilesKey, i))
			continue
		}
		acc = append(acc, s)
	}
	return acc
}

// SecretFiles returns the patterns every layer added to
// tribunal.secret_files, in layer order, unchecked: the Stop hook's job
// carries them to the judge as they are.
func (c *Config) SecretFiles() []string {
	return append([]string(nil), c.secretFiles...)
}

// SecretRule is the rule for untracked files that look like secrets: the
// built-in patterns plus SecretFiles; a pattern that cannot be used is
// skipped with a warning.
func (c *Config) SecretRule() secretfiles.Rule {
	r, warnings := secretfiles.New(c.secretFiles)
	for _, w := range warnings {
		c.warn("tribunal." + secretFilesKey + ": " + w + "; ignored")
	}
	return r
}
