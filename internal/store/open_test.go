package store

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Every kind of path that is not a regular file is refused at once: a
// FIFO without a writer (a plain open would wait forever), a link to a
// device, a directory. A regular file read through a link is fine.
func TestOpenRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	mustLink := func(target, name string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	regular := filepath.Join(dir, "regular")
	if err := os.WriteFile(regular, []byte("data"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want string // "" for success
	}{
		{fifo, "not a regular file (a named pipe)"},
		{mustLink(fifo, "to-fifo"), "not a regular file (a named pipe)"},
		{mustLink("/dev/zero", "to-zero"), "not a regular file (a character device)"},
		{"/dev/null", "not a regular file (a character device)"},
		{dir, "not a regular file (a directory)"},
		{regular, ""},
		{mustLink(regular, "to-regular"), ""},
	} {
		done := make(chan error, 1)
		go func() {
			data, err := ReadRegular(tc.path, 100)
			if err == nil && string(data) != "data" {
				err = errors.New("read " + string(data))
			}
			done <- err
		}()
		select {
		case err := <-done:
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%s: %v", tc.path, err)
			case tc.want != "" && (!errors.Is(err, ErrNotRegular) || err.Error() != "open "+tc.path+": "+tc.want):
				t.Errorf("%s: got %v, want %q", tc.path, err, tc.want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: still blocked after 30s", tc.path)
		}
	}
}

func TestReadRegularCap(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, make([]byte, 11), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRegular(p, 10); err == nil || err.Error() != "larger than 10 bytes" {
		t.Errorf("got %v", err)
	}
	if data, err := ReadRegular(p, 11); err != nil || len(data) != 11 {
		t.Errorf("got %d bytes, %v", len(data), err)
	}
}

// OpenInPlace refuses a symbolic link whatever it points at, and a FIFO
// at once (a writer to it would block once its buffer filled); a regular
// file and a character device are opened.
func TestOpenInPlace(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	flags := os.O_RDWR | os.O_APPEND | os.O_CREATE
	if _, err := OpenInPlace(link, flags, 0o600); !errors.Is(err, ErrSymlink) || err.Error() != "open "+link+": "+ErrSymlink.Error() {
		t.Errorf("link: %v", err)
	}
	if _, err := LockFile(link, true, time.Second); !errors.Is(err, ErrSymlink) {
		t.Errorf("lock through a link: %v", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "keep" {
		t.Errorf("target is now %q", data)
	}
	if _, err := OpenInPlace(fifo, flags, 0o600); !errors.Is(err, ErrNotRegular) {
		t.Errorf("fifo: %v", err)
	}
	for _, p := range []string{target, filepath.Join(dir, "new"), "/dev/null"} {
		f, err := OpenInPlace(p, flags, 0o600)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		f.Close()
	}
}
