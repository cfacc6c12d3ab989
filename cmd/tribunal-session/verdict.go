package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/receipt"
	"github.com/tribunal-cc/tribunal/internal/store/signedverdict"
)

// maxVerdictFile bounds a signed verdict file (one short JSON object).
const maxVerdictFile = 1 << 20

// verdictCmd is `verdict verify FILE --allowed-signers F` (spec §11.7):
// a signed verdict file checked offline, with verify-receipt's exit
// statuses (0 valid, 31 the verdict did not pass, 33 a signer the file
// does not allow, 34 a bad signature, 2 usage).
func (c *cli) verdictCmd(args []string) int {
	usage := func() int {
		c.errorf("usage: tribunal-session verdict verify FILE --allowed-signers FILE")
		c.hint("judge --answer … --signed-out FILE writes a signed verdict file; the allowed-signers file is the one receipts use")
		return exitUsage
	}
	if len(args) == 0 {
		return usage()
	}
	if args[0] != "verify" {
		// The one action; a typo or a file named first gets the usage
		// with what was typed, as a misspelled command does.
		c.errorf("verdict: unknown action %q%s", args[0], safetext.DidYouMean(args[0], []string{"verify"}, strconv.Quote))
		c.hint("tribunal-session verdict verify FILE --allowed-signers FILE")
		return exitUsage
	}
	fs := flag.NewFlagSet("verdict verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	signersPath := fs.String("allowed-signers", "", "")
	pos, err := parseRunArgs(fs, args[1:])
	if err != nil {
		return c.flagError("verdict verify", fs, err)
	}
	if len(pos) != 1 || *signersPath == "" {
		return usage()
	}
	// store.ReadRegular: a FIFO is refused, not waited on; a file over the
	// bound is an error, not read whole.
	data, err := store.ReadRegular(pos[0], maxVerdictFile)
	if err != nil {
		c.errorf("verdict verify: cannot read %s: %v", pos[0], err)
		c.hint("name the file judge --signed-out wrote")
		return exitUsage
	}
	signers, ok := c.readSigners("verdict verify", *signersPath, 0)
	if !ok {
		return exitUsage
	}
	status, why, _ := signedverdict.Verify(data, signers)
	fmt.Fprintf(c.stdout, "%s: %s: %s\n", pos[0], status, why)
	if status != receipt.Valid {
		return exitFor[status]
	}
	return 0
}
