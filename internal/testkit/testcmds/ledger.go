package testcmds

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
)

// The ledger commands, registered here so that they stay beside their
// helpers:
//
//	mkledger FILE N                  append N entries to the ledger FILE, signed with the key in $ONLOOKER_DIR/keys
//	ledgerpath VAR [DIR]             set VAR to the ledger path of the repository at DIR (default: the current directory)
//	exitcode N PROGRAM [ARGS...]     run PROGRAM like exec and require exit status N; stdout and stderr stay checkable
//	keyfingerprint VAR               set VAR to the fingerprint of the current key in $ONLOOKER_DIR/keys (created if missing),
//	                                 VAR_RE to it quoted for a regular expression (it may hold + and /), and
//	                                 VAR_PUB to the public key as keygen and verify print it (for scrub)
func init() {
	Cmds["keyfingerprint"] = keyFingerprint
	Cmds["mkledger"] = mkledger
	Cmds["ledgerpath"] = ledgerPath
	Cmds["exitcode"] = exitCode
}

// mkledgerTime is the clock of mkledger's entries, so scripts see stable
// times.
var mkledgerTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func mkledger(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mkledger FILE N")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	onlooker, _ := events.ResolvePaths(ts.Getenv, ts.Getenv("HOME"))
	for i := range n {
		kind, fields := ledger.KindGate, ledger.Fields{TaskID: "01TASK", IterationID: fmt.Sprintf("01ITER%d", i)}
		outcome := "retry"
		if i%2 == 1 {
			kind, fields, outcome = ledger.KindAdvisory, ledger.Fields{TaskID: fmt.Sprintf("01STOP%d", i), SessionID: "sess"}, "accept"
		}
		rec := map[string]any{"n": i, "outcome": outcome, "score": 0.25 * float64(i%4)}
		_, err := ledger.Append(ts.MkAbs(args[0]), ledger.KeyDir(onlooker), kind, fields, rec, mkledgerTime.Add(time.Duration(i)*time.Second))
		ts.Check(err)
	}
}

func ledgerPath(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: ledgerpath VAR [DIR]")
	}
	dir := ts.MkAbs(".")
	if len(args) == 2 {
		dir = ts.MkAbs(args[1])
	}
	env := []string{"PATH=" + ts.Getenv("PATH"), "HOME=" + ts.Getenv("HOME"), "GIT_CONFIG_NOSYSTEM=1"}
	repo, err := projectkey.Resolve(context.Background(), dir, projectkey.ExecGit("git", env))
	ts.Check(err)
	onlooker, _ := events.ResolvePaths(ts.Getenv, ts.Getenv("HOME"))
	ts.Setenv(args[0], ledger.PathFor(store.ForKey(onlooker, repo.Key).Dir))
}

func exitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

func keyFingerprint(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: keyfingerprint VAR")
	}
	onlooker, _ := events.ResolvePaths(ts.Getenv, ts.Getenv("HOME"))
	key, err := ledger.LoadOrCreateKey(ledger.KeyDir(onlooker))
	ts.Check(err)
	pub := key.Public().(ed25519.PublicKey)
	fp := ledger.Fingerprint(pub)
	ts.Setenv(args[0], fp)
	ts.Setenv(args[0]+"_PUB", ledger.PublicKeyString(pub))
	ts.Setenv(args[0]+"_RE", regexp.QuoteMeta(fp))
}
