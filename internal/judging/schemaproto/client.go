package schemaproto

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tribunal-cc/tribunal/internal/output"
	"github.com/tribunal-cc/tribunal/internal/proc"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// Timeout bounds one run of the helper: compiling a rubric's schemas and
// validating a round's files take milliseconds; a helper that hangs is
// killed rather than waited on.
const Timeout = 2 * time.Minute

// Hint is what a user does about a missing helper.
const Hint = output.ReinstallHint

// MissingError is a helper that is not installed beside the running
// binary; it wraps proc.ErrNoHelper.
type MissingError struct {
	Dir string
	Err error
}

func (e *MissingError) Error() string { return output.NotInstalled(Program, e.Dir) }

func (e *MissingError) Unwrap() error { return e.Err }

// Helper runs the tribunal-schema program installed beside Self, the
// running binary (proc.Self, passed in by the command).
type Helper struct {
	Self string
	// Timeout bounds each run; 0 means Timeout.
	Timeout time.Duration
}

// Validate runs the helper once on req: one process per request, killed
// when ctx ends or at the timeout, its answer bounded (ResponseLimit).
func (h Helper) Validate(ctx context.Context, req *Request) (*Response, error) {
	path, err := proc.Helper(h.Self, Program)
	if err != nil {
		return nil, h.missing(err)
	}
	in, err := EncodeRequest(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Program, err)
	}
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = Timeout
	}
	limit := ResponseLimit(req)
	// No environment: the helper reads nothing but its input.
	res, err := proc.Run(ctx, proc.Cmd{Path: path, Stdin: string(in), Timeout: timeout, MaxStdout: limit + 1})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Program, err)
	}
	if res.ExitCode != 0 {
		why := safetext.FirstLine(res.Stderr, 300)
		if why == "" {
			why = "no message"
		}
		return nil, fmt.Errorf("%s exited with status %d: %s", Program, res.ExitCode, why)
	}
	out, err := DecodeResponse(req, res.Stdout)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Program, err)
	}
	return out, nil
}

// missing names the directory looked in, as proc.Helper does.
func (h Helper) missing(err error) error {
	if h.Self == "" || !errors.Is(err, proc.ErrNoHelper) {
		return &MissingError{Err: err}
	}
	return &MissingError{Dir: proc.HelperDir(h.Self), Err: err}
}
