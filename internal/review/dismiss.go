package review

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// DismissedFile is where a branch keeps the fingerprints of the findings
// its people dismissed, relative to the repository root: committed with
// the change, it travels with the pull request and needs no service.
const DismissedFile = ".tribunal/dismissed"

// maxDismissed bounds the dismissal file.
const maxDismissed = 1 << 20

// ReadDismissed reads a dismissal file: one fingerprint per line, first
// on the line (anything after it is the person's reason), blank lines and
// lines starting with # ignored. A missing file dismisses nothing.
func ReadDismissed(path string) (map[string]bool, error) {
	data, err := store.ReadRegular(path, maxDismissed)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the dismissed findings: %w", err)
	}
	return ParseDismissed(string(data)), nil
}

// ParseDismissed is ReadDismissed's reading of the file's text.
func ParseDismissed(text string) map[string]bool {
	out := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		out[f[0]] = true
	}
	return out
}
