package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
)

func (c *cli) keyDir() string {
	onlooker, _ := events.ResolvePaths(c.getenv, c.home())
	return ledger.KeyDir(onlooker)
}

// verifyCmd checks a ledger: this repository's by default. Exit 0 when it
// verifies, 20 for a broken chain, 21 for a bad signature, 22 when it is
// not signed by the expected key (--expect-key, else the user-level
// tribunal.trust.ledger_key), 2 when there is nothing to check.
func (c *cli) verifyCmd(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	path := fs.String("ledger", "", "the ledger file")
	expect := fs.String("expect-key", "", "the fingerprint of a key that must have signed the ledger")
	if err := fs.Parse(args); err != nil {
		return c.flagError("verify", fs, err)
	}
	if fs.NArg() != 0 {
		// Three commands verify; a file named here is most likely meant
		// for one of the other two.
		c.errorf("verify takes no arguments, got %q", fs.Arg(0))
		c.hint("verify checks this project's ledger, or the one --ledger FILE names; a signed verdict file is checked with 'tribunal-session verdict verify FILE --allowed-signers FILE', a commit's receipt with 'tribunal-session verify-receipt COMMIT'")
		return exitUsage
	}
	anchor, source, err := c.ledgerAnchor(*expect)
	if err != nil {
		c.errorf("verify: %s: %v", source, err)
		c.hint("give a key fingerprint (SHA256:…) as verify and keygen print it, or the public key verify lists")
		return exitUsage
	}
	if *path == "" {
		h, ok := c.locate(ctx, "verify", "run it inside the repository whose ledger to check, or name the file: tribunal-session verify --ledger PATH")
		if !ok {
			return exitUsage
		}
		*path = ledger.PathFor(h.project.Dir)
	}
	rep, err := ledger.Verify(*path)
	if code, failed := c.verifyFailure(*path, err); failed {
		return code
	}
	if anchor != "" {
		if err := ledger.CheckAnchor(rep, anchor); err != nil {
			c.errorf("ledger %q: %v", *path, err)
			c.hint("if you rotated the key on purpose, the previous fingerprint still anchors the ledger; otherwise restore the ledger from a backup")
			return exitNotAnchored
		}
	}
	fmt.Fprintf(c.stdout, "ledger OK: %d entries, %d key(s)\n", rep.Entries, len(rep.Keys))
	if rep.Entries > 0 {
		fmt.Fprintf(c.stdout, "head: entry %d, sha256 %s\n", rep.Entries-1, rep.Head.Hash)
	}
	c.describeKeys(rep.Keys)
	if anchor != "" {
		fmt.Fprintf(c.stdout, "anchor: %s signed it (%s)\n", anchor, source)
	} else {
		c.warning("no trust anchor is set: a ledger re-signed wholesale with another key, its key file replaced, would verify too")
		c.anchorHint(rep.Keys)
	}
	return 0
}

// anchorHint tells how to set a trust anchor with the fingerprint to use:
// the key was made the first time something was recorded, so the user
// never saw keygen print it; verify has just listed it.
func (c *cli) anchorHint(keys []string) {
	fp := ""
	local, _ := ledger.Keys(c.keyDir())
	for _, l := range local {
		if l.Current && slices.Contains(keys, l.PublicKey) {
			fp, _ = ledger.KeyFingerprint(l.PublicKey)
		}
	}
	if fp == "" {
		c.hint("if a key listed above is yours, set tribunal.trust.ledger_key to its fingerprint (SHA256:…) in ~/.claude/settings.json, or pass it as --expect-key")
		return
	}
	c.hint("this machine's current key signed it: to hold the ledger to it, set tribunal.trust.ledger_key to %q in ~/.claude/settings.json, or pass --expect-key %s", fp, fp)
}

// ledgerAnchor is the fingerprint verify holds the ledger to, and where it
// came from: --expect-key, else tribunal.trust.ledger_key from the user's
// settings (a repository's is ignored with a warning), else none ("").
func (c *cli) ledgerAnchor(flagValue string) (anchor, source string, err error) {
	source = "--expect-key"
	raw := flagValue
	if raw == "" {
		dir, _ := os.Getwd()
		root, err := projectkey.FindWorktreeRoot(dir)
		if err != nil {
			root = ""
		}
		cfg := config.Load(config.Sources{PluginRoot: c.getenv("CLAUDE_PLUGIN_ROOT"), Home: c.home(), WorktreeRoot: root, Warn: c.warning})
		raw, source = cfg.LedgerKey(), "tribunal.trust.ledger_key"
	}
	if raw == "" {
		return "", "", nil
	}
	anchor, err = ledger.ParseAnchor(raw)
	return anchor, source, err
}

// verifyFailure reports err and chooses the exit code.
func (c *cli) verifyFailure(path string, err error) (int, bool) {
	var ce *ledger.ChainError
	var se *ledger.SignatureError
	switch {
	case err == nil:
		return 0, false
	case errors.As(err, &ce):
		c.errorf("ledger %q: %v", path, err)
		c.hint("lines were removed, added, reordered or cut off, or the file was edited; compare it with a backup")
		return exitBrokenChain, true
	case errors.As(err, &se):
		c.errorf("ledger %q: %v", path, err)
		c.hint("the entry was changed after it was signed, or signed by a key the ledger's own key never endorsed")
		return exitBadSig, true
	case errors.Is(err, fs.ErrNotExist):
		c.errorf("ledger %q does not exist", path)
		c.hint("nothing has been recorded for this project yet: each gate decision and advisory verdict adds an entry")
		return exitUsage, true
	default:
		c.errorf("verify: %v", err)
		return exitAborted, true
	}
}

// describeKeys prints each signing key and whether this machine holds it.
// A key the machine never held is how a ledger re-signed wholesale by
// someone else shows itself, so it also draws a warning.
func (c *cli) describeKeys(keys []string) {
	dir := c.keyDir()
	local, err := ledger.Keys(dir)
	if err != nil {
		c.warnf("cannot read the local keys: %v", err)
	}
	for _, k := range keys {
		status := "not a key of this machine"
		for _, l := range local {
			if l.PublicKey == k {
				status = "rotated key, kept in " + l.Path
				if l.Current {
					status = "current key"
				}
			}
		}
		fp, _ := ledger.KeyFingerprint(k)
		fmt.Fprintf(c.stdout, "key %s %s (%s)\n", fp, k, status)
		if status == "not a key of this machine" && err == nil {
			c.warnf("key %s is not in %s: the ledger was written on another machine, its key was deleted, or it was re-signed by someone else", k, dir)
		}
	}
}

// keygenCmd rotates the signing key.
func (c *cli) keygenCmd(args []string) int {
	var out string
	if !c.simpleFlags("keygen", args, func(fs *flag.FlagSet) { fs.StringVar(&out, "out", "", "") }) {
		return exitUsage
	}
	if out != "" {
		return c.keygenOut(out)
	}
	dir := c.keyDir()
	key, old, err := ledger.Rotate(dir, time.Now())
	if err != nil {
		c.errorf("keygen: %v", err)
		return exitAborted
	}
	pub := key.Public().(ed25519.PublicKey)
	fmt.Fprintf(c.stdout, "public key: %s\n", ledger.PublicKeyString(pub))
	fmt.Fprintf(c.stdout, "fingerprint: %s\n", ledger.Fingerprint(pub))
	fmt.Fprintf(c.stdout, "key file: %s\n", filepath.Join(dir, ledger.KeyFileName))
	c.progress("keep the fingerprint somewhere the ledger's directory is not (a password manager, your user settings as tribunal.trust.ledger_key): tribunal-session verify --expect-key " + ledger.Fingerprint(pub) + " then proves the ledger was signed by this key")
	if old == "" {
		fmt.Fprintln(c.stdout, "previous key: none")
		return 0
	}
	fmt.Fprintf(c.stdout, "previous key kept in: %s\n", old)
	c.progress("keep the previous key file: entries it signed still verify by the public key they carry, and the next entry of each ledger is endorsed by it")
	return 0
}

// keygenOut writes a new key to the file the user named, never over an
// existing one, and prints its public half: the ledger's own key is not
// touched.
func (c *cli) keygenOut(path string) int {
	key, err := ledger.CreateKeyFile(path)
	if errors.Is(err, fs.ErrExist) {
		c.errorf("keygen: %v", err)
		c.hint("name a new file, or remove the old one yourself if it is really unused")
		return exitUsage
	}
	if err != nil {
		c.errorf("keygen: %v", err)
		return exitAborted
	}
	pub := key.Public().(ed25519.PublicKey)
	fmt.Fprintf(c.stdout, "public key: %s\n", ledger.PublicKeyString(pub))
	fmt.Fprintf(c.stdout, "fingerprint: %s\n", ledger.Fingerprint(pub))
	fmt.Fprintf(c.stdout, "key file: %s\n", path)
	// The line an allowed-signers file takes after a name, so that what
	// this key signs (judge --signed-out --key) can be verified.
	fmt.Fprintf(c.stdout, "allowed-signers key: %s\n", ledger.SSHPublicKey(pub))
	return 0
}
