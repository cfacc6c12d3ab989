package records

import (
	"crypto/sha256"
	"encoding/hex"
)

// Notice is the record that a one-time notice was shown
// (store.NoticesDir/NoticeFile(text)).
type Notice struct {
	Text    string `json:"text"`
	ShownAt string `json:"shown_at"`
}

// NoticeFile names the record of one notice, by its text: a different
// notice (another family on an all-one-family panel) is shown again.
func NoticeFile(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "notice-" + hex.EncodeToString(sum[:8]) + JSONExt
}
