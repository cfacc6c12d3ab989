package surface

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// maxConfigProblems is how many problems the session's message names; the
// rest are counted (doctor and config --check list them all).
const maxConfigProblems = 3

// configNotice is the user's message, at a session's start, about the
// problems Load found in the settings, or "" when it was already said for
// these settings. Hooks report such problems on stderr, which Claude Code
// does not show, so a typo that turns a hook off would go unseen. Once per
// change of the settings: the files' digest names a marker in the store,
// created exclusively, so of two sessions starting together one says it.
// It runs only when there are problems: the common path reads nothing more.
func configNotice(onlookerDir string, layers []config.Layer, problems []string) string {
	digest := settingsDigest(layers)
	dir := store.SettingsNoticeDir(onlookerDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ""
	}
	f, err := os.OpenFile(filepath.Join(dir, digest), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		// Already said (or the store cannot take the marker: then staying
		// quiet beats repeating it at every start).
		return ""
	}
	f.Close()
	return ConfigMessage(problems)
}

// ConfigMessage words the problems for the user: how many, the first few
// on one line each, and where the whole list is.
func ConfigMessage(problems []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tribunal: %d problem(s) in your tribunal settings; until they are fixed tribunal may not do what they say:", len(problems))
	for i, p := range problems {
		if i == maxConfigProblems {
			fmt.Fprintf(&b, "\n- and %d more", len(problems)-i)
			break
		}
		b.WriteString("\n- " + safetext.OneLine(p, 300))
	}
	b.WriteString("\nRun `tribunal-session doctor` for every check and what to do.")
	return b.String()
}

// settingsDigest is the SHA-256 of every settings layer: each file's path
// and contents (an absent file counts as absent).
func settingsDigest(layers []config.Layer) string {
	h := sha256.New()
	for _, l := range layers {
		data, err := store.ReadRegular(l.Path, 1<<20)
		if err != nil {
			data = nil // absent or unreadable: its problem is in the list
		}
		fmt.Fprintf(h, "%s\x00%d\x00", l.Path, len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// emitConfigNote says the configuration message alone when no verdict
// note carried it.
func (h *hook) emitConfigNote() {
	if h.configNote != "" && !h.emitted {
		h.emit("")
	}
}
