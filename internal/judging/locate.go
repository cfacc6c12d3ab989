package judging

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxLocateBytes bounds how much of a cited file is read to count lines.
const maxLocateBytes = 64 << 20

// locator checks a judge's finding location against the directory the
// judged work is in: the file must exist there (a relative path, or an
// absolute one inside root; never outside it) and have at least `line`
// lines. A "path:line" file naming is understood too.
func locator(root string) func(file string, line int) bool {
	return func(file string, line int) bool {
		p, ok := inside(root, file)
		if !ok || !isFile(p) {
			// "path/to/file.go:42" in the file field.
			i := strings.LastIndexByte(file, ':')
			if i <= 0 {
				return false
			}
			n, err := strconv.Atoi(file[i+1:])
			if err != nil || n < 1 {
				return false
			}
			if p, ok = inside(root, file[:i]); !ok || !isFile(p) {
				return false
			}
			if line == 0 {
				line = n
			}
		}
		return line <= 0 || hasLine(p, line)
	}
}

// inside resolves file against root and refuses anything that leaves it.
func inside(root, file string) (string, bool) {
	if file == "" {
		return "", false
	}
	p := file
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	p = filepath.Clean(p)
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	// A symlink may point anywhere; judge the target's location too.
	if real, err := filepath.EvalSymlinks(p); err == nil {
		realRoot, _ := filepath.EvalSymlinks(root)
		if rel, err := filepath.Rel(realRoot, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", false
		}
	}
	return p, true
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// hasLine reports whether the file has at least n lines (a last line
// without a newline counts).
func hasLine(p string, n int) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	r := bufio.NewReader(io.LimitReader(f, maxLocateBytes))
	lines := 0
	for {
		chunk, err := r.ReadSlice('\n')
		if len(chunk) > 0 && (err == nil || err == io.EOF || err == bufio.ErrBufferFull) {
			if err != bufio.ErrBufferFull {
				lines++
			}
		}
		if lines >= n {
			return true
		}
		if err != nil && err != bufio.ErrBufferFull {
			return false
		}
	}
}
