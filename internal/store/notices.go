package store

import "path/filepath"

// NoticesDir remembers which one-time notices the user has been shown
// ($ONLOOKER_DIR/tribunal-cache/notices): for every project at once,
// since a notice about the user's own settings is news only once.
func NoticesDir(onlookerDir string) string {
	return filepath.Join(onlookerDir, "tribunal-cache", "notices")
}
