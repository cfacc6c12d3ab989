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
	"time"

	"github.com/tribunal-cc/tribunal/internal/events"
	"github.com/tribunal-cc/tribunal/internal/ledger"
)

func (c *cli) keyDir() string {
	onlooker, _ := events.ResolvePaths(c.getenv, c.home())
	return ledger.KeyDir(onlooker)
}

// verifyCmd checks a ledger: this repository's by default. Exit 0 when it
// verifies, 20 for a broken chain, 21 for a bad signature, 2 when there
// is nothing to check.
func (c *cli) verifyCmd(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	path := fs.String("ledger", "", "the ledger file")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		c.errorf("usage: tribunal-session verify [--ledger PATH]")
		return exitUsage
	}
	if *path == "" {
		dir, err := os.Getwd()
		if err != nil {
			c.errorf("verify: cannot determine the current directory: %v", err)
			return exitUsage
		}
		project, err := c.projectDir(ctx, dir)
		if err != nil {
			c.errorf("verify: %v", err)
			c.hint("run it inside the repository whose ledger to check, or name the file: tribunal-session verify --ledger PATH")
			return exitUsage
		}
		*path = ledger.PathFor(project.Dir)
	}
	rep, err := ledger.Verify(*path)
	if code, failed := c.verifyFailure(*path, err); failed {
		return code
	}
	fmt.Fprintf(c.stdout, "ledger OK: %d entries, %d key(s)\n", rep.Entries, len(rep.Keys))
	if rep.Entries > 0 {
		fmt.Fprintf(c.stdout, "head: entry %d, sha256 %s\n", rep.Entries-1, rep.Head.Hash)
	}
	c.describeKeys(rep.Keys)
	return 0
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
		c.warn(fmt.Sprintf("tribunal: warning: cannot read the local keys: %v", err))
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
		fmt.Fprintf(c.stdout, "key %s (%s)\n", k, status)
		if status == "not a key of this machine" && err == nil {
			c.warn(fmt.Sprintf("tribunal: warning: key %s is not in %s: the ledger was written on another machine, its key was deleted, or it was re-signed by someone else", k, dir))
		}
	}
}

// keygenCmd rotates the signing key.
func (c *cli) keygenCmd(args []string) int {
	if len(args) > 0 {
		c.errorf("keygen takes no arguments")
		c.hint("tribunal-session keygen replaces the ledger signing key in $ONLOOKER_DIR/keys and keeps the old one")
		return exitUsage
	}
	dir := c.keyDir()
	key, old, err := ledger.Rotate(dir, time.Now())
	if err != nil {
		c.errorf("keygen: %v", err)
		return exitAborted
	}
	fmt.Fprintf(c.stdout, "public key: %s\n", ledger.PublicKeyString(key.Public().(ed25519.PublicKey)))
	fmt.Fprintf(c.stdout, "key file: %s\n", filepath.Join(dir, ledger.KeyFileName))
	if old == "" {
		fmt.Fprintln(c.stdout, "previous key: none")
		return 0
	}
	fmt.Fprintf(c.stdout, "previous key kept in: %s\n", old)
	c.warn("tribunal: keep the previous key file: entries it signed still verify by the public key they carry, and the next entry of each ledger is endorsed by it")
	return 0
}
