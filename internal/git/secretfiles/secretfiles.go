// Package secretfiles decides which of the user's untracked files look like
// secrets (by name, or by a private key in their first bytes), so that task
// snapshots, diffs, prompts and stored records leave them out.
//
// It is the one copy of the rule: the task worktree's snapshot
// (internal/git/worktree), the Stop hook's diff (internal/git/gitstate via
// internal/hook/stophook) and the settings that extend it (internal/config) all
// use it. It only ever adds files to leave out: built-in patterns plus the
// patterns of every settings layer (a repository may add, never remove).
package secretfiles

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"strings"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// Builtin is the built-in pattern list (syntax: see Parse). Templates
// meant to be committed (".env.example", ".env.sample", ".env.template",
// ".env.dist" and their "example.env" forms) are not left out by name:
// the actor is often asked to edit them, and they hold placeholders. A
// directory named "secrets" is not on the list either: it is as often a
// source package; the key files in it are caught by name or content.
var Builtin = []string{
	// Environment files: dotenv, direnv, docker --env-file.
	".env", ".env.*", "*.env", ".envrc",
	// SSH private keys (their ".pub" halves are public).
	"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk",
	// Keys, certificates with keys, key stores, password databases.
	"*.pem", "*.key", "*.p12", "*.pfx", "*.p8", "*.ppk", "*.jks", "*.keystore", "*.kdbx",
	// Credential files of package managers, git, databases, HTTP, clouds.
	".npmrc", ".pypirc", ".netrc", "_netrc", ".git-credentials", ".pgpass", ".htpasswd", ".dockercfg",
	"credentials", "credentials*.json", "*-credentials.json", "client_secret*.json", "service-account*.json",
	"secrets.json", "secrets.yml", "secrets.yaml", "secrets.toml",
	"**/.docker/config.json",
	// Terraform state holds every secret it manages in clear text.
	"*.tfstate", "*.tfstate.backup",
	// Whole directories of keys.
	".ssh/", ".gnupg/",
}

// templates are the names an environment-file pattern of Builtin does not
// cover: committed examples with placeholder values.
var templates = map[string]bool{
	".env.example": true, ".env.sample": true, ".env.template": true, ".env.dist": true,
	"example.env": true, "sample.env": true, "template.env": true,
}

// SniffBytes is how much of an untracked file is searched for a private
// key: keys sit at the start of their file, or early in a JSON one (a
// cloud service account's "private_key").
const SniffBytes = 64 << 10

// maxGlobstars bounds "**" segments per pattern: each one multiplies the
// matching work by the path's depth.
const maxGlobstars = 4

// pattern is one parsed pattern.
type pattern struct {
	src string
	// segs are the slash-separated parts of an anchored pattern (one that
	// has a slash before its end), matched from the repository root.
	segs []string
	// name is the single segment of an unanchored pattern.
	name string
	// dir: the pattern ended in "/" and matches directories only (and so
	// everything under them).
	dir bool
	// builtin patterns honour templates.
	builtin bool
}

// Rule is the built-in patterns plus any added by settings. The zero Rule
// is the built-in list alone.
type Rule struct {
	extra []pattern
}

// builtin is Builtin parsed, on first use: the hooks link this package,
// and most of their runs never match a path.
var builtin = sync.OnceValue(func() []pattern {
	var out []pattern
	for _, s := range Builtin {
		p, err := parse(s)
		if err != nil {
			panic(err)
		}
		p.builtin = true
		out = append(out, p)
	}
	return out
})

// New returns the rule of the built-in patterns plus extra, the patterns
// of the settings. A pattern that cannot be used is skipped, with a
// warning for each.
//
// Syntax (a subset of .gitignore's): a pattern without a slash matches a
// file's name ("*.pem", ".env.*"); one ending in "/" matches a directory
// of that name anywhere, and so everything below it (".ssh/"); one with a
// slash elsewhere matches the path from the repository root ("config/
// prod.json", "deploy/keys/"), where "**" spans any number of directories.
// "*", "?" and "[...]" are path.Match's. Negation ("!") does not exist:
// patterns only ever add files to leave out.
func New(extra []string) (Rule, []string) {
	var r Rule
	var warnings []string
	for _, s := range extra {
		p, err := parse(s)
		if err != nil {
			warnings = append(warnings, err.Error())
			continue
		}
		r.extra = append(r.extra, p)
	}
	return r, warnings
}

// Parse checks one pattern of the settings; nil means it is usable.
func Parse(s string) error {
	_, err := parse(s)
	return err
}

func parse(s string) (pattern, error) {
	p := pattern{src: s}
	t := strings.TrimSpace(s)
	switch {
	case t == "" || t == "/":
		return p, fmt.Errorf("secret file pattern %q is empty", s)
	case strings.HasPrefix(t, "!"):
		return p, fmt.Errorf("secret file pattern %q: negation is not supported (patterns only add files to leave out)", s)
	}
	t, p.dir = strings.CutSuffix(t, "/")
	t = strings.TrimPrefix(t, "/")
	segs := strings.Split(t, "/")
	stars := 0
	for _, seg := range segs {
		if seg == "" || seg == "." || seg == ".." {
			return p, fmt.Errorf("secret file pattern %q has an empty, \".\" or \"..\" part", s)
		}
		if seg == "**" {
			stars++
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return p, fmt.Errorf("secret file pattern %q: %w", s, err)
		}
	}
	if stars > maxGlobstars {
		return p, fmt.Errorf("secret file pattern %q has more than %d \"**\" parts", s, maxGlobstars)
	}
	if len(segs) == 1 && segs[0] != "**" && !strings.HasPrefix(strings.TrimSpace(s), "/") {
		p.name = segs[0]
	} else {
		p.segs = segs
	}
	return p, nil
}

// MatchName reports whether the untracked path rel (slash-separated,
// relative to the repository root; a trailing "/" marks a directory, as
// git lists a nested repository) looks like a secret by its name alone.
func (r Rule) MatchName(rel string) bool {
	isDir := strings.HasSuffix(rel, "/")
	comps := strings.Split(strings.Trim(rel, "/"), "/")
	for _, list := range [][]pattern{builtin(), r.extra} {
		for _, p := range list {
			if p.match(comps, isDir) {
				return true
			}
		}
	}
	return false
}

func (p pattern) match(comps []string, isDir bool) bool {
	if p.segs != nil {
		return matchFrom(p.segs, comps, p.dir, isDir)
	}
	last := len(comps) - 1
	if p.dir {
		dirs := comps[:last]
		if isDir {
			dirs = comps
		}
		for _, c := range dirs {
			if ok, _ := path.Match(p.name, c); ok {
				return true
			}
		}
		return false
	}
	if isDir {
		return false
	}
	ok, _ := path.Match(p.name, comps[last])
	return ok && !(p.builtin && templates[comps[last]])
}

// matchFrom matches an anchored pattern against the leading components:
// a match of a directory covers everything below it.
func matchFrom(segs, comps []string, dirOnly, isDir bool) bool {
	if len(segs) == 0 {
		return len(comps) > 0 || !dirOnly || isDir
	}
	if segs[0] == "**" {
		for i := 0; i <= len(comps); i++ {
			if matchFrom(segs[1:], comps[i:], dirOnly, isDir) {
				return true
			}
		}
		return false
	}
	if len(comps) == 0 {
		return false
	}
	if ok, _ := path.Match(segs[0], comps[0]); !ok {
		return false
	}
	return matchFrom(segs[1:], comps[1:], dirOnly, isDir)
}

// keyMarkers begin the private keys that PEM, OpenSSH, PGP and PuTTY
// write; "-----BEGIN … PRIVATE KEY-----" covers RSA, EC, DSA, PKCS#8,
// encrypted and OpenSSH keys.
var (
	pemBegin   = []byte("-----BEGIN ")
	privateKey = []byte("PRIVATE KEY")
	pgpPrivate = []byte("-----BEGIN PGP PRIVATE KEY BLOCK-----")
	puttyKey   = []byte("PuTTY-User-Key-File-")
)

// LooksLikePrivateKey reports whether head, the first bytes of a file,
// holds a private key.
func LooksLikePrivateKey(head []byte) bool {
	if bytes.HasPrefix(head, puttyKey) || bytes.Contains(head, pgpPrivate) {
		return true
	}
	for rest := head; ; {
		i := bytes.Index(rest, pemBegin)
		if i < 0 {
			return false
		}
		rest = rest[i+len(pemBegin):]
		// The label runs to the closing dashes on the same line.
		label := rest
		if j := bytes.Index(label, []byte("-----")); j >= 0 {
			label = label[:j]
		} else {
			return false
		}
		if bytes.HasSuffix(label, privateKey) && !bytes.ContainsAny(label, "\r\n") {
			return true
		}
	}
}

// Split divides untracked paths into those to keep and those that look
// like secrets, by name or, for a file whose name does not tell, by a
// private key in its first SniffBytes (head returns them; nil for a path
// that is not a regular file). Both lists keep the order of paths.
func (r Rule) Split(paths []string, head func(rel string) []byte) (keep, leftOut []string) {
	for _, p := range paths {
		if r.MatchName(p) || (head != nil && !strings.HasSuffix(p, "/") && LooksLikePrivateKey(head(p))) {
			leftOut = append(leftOut, p)
			continue
		}
		keep = append(keep, p)
	}
	return keep, leftOut
}

// Head returns the first SniffBytes of the regular file at path, nil when
// it is not one or cannot be read. The open never blocks on a FIFO
// (store.OpenRegular).
func Head(path string) []byte {
	f, err := store.OpenRegular(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, SniffBytes))
	if err != nil {
		return nil
	}
	return b
}

// maxNamed bounds the file names Describe lists.
const maxNamed = 10

// Describe is the one line saying which untracked files were left out:
// "left out 2 untracked files that look like secrets: .env,
// secrets/id_ed25519". Names are made single-line and bounded; past
// maxNamed a count stands for the rest. "" for none.
func Describe(leftOut []string) string {
	if len(leftOut) == 0 {
		return ""
	}
	var names []string
	for i, p := range leftOut {
		if i == maxNamed {
			names = append(names, fmt.Sprintf("and %d more", len(leftOut)-maxNamed))
			break
		}
		names = append(names, safetext.OneLine(p, 200))
	}
	noun := "files that look like secrets"
	if len(leftOut) == 1 {
		noun = "file that looks like a secret"
	}
	return fmt.Sprintf("left out %d untracked %s: %s", len(leftOut), noun, strings.Join(names, ", "))
}
