package remote

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A far side holds its session's lock file while it lives (the kernel lets
// go of it when the process ends, however it ends). A near side whose link
// dropped asks a new far side what a write did; that one first waits for
// the old session's lock, so that the answer is read from a history the
// old process can no longer add to.

// sessionDir is the folder of the session locks: dir, or sessions in the
// far side's cache ($TENT_TOOLS_CACHE, or ~/.cache/tent-tools).
func sessionDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	if cache := os.Getenv("TENT_TOOLS_CACHE"); cache != "" {
		return filepath.Join(cache, "sessions"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("remote: the session folder: %w", err)
	}
	return filepath.Join(home, ".cache", "tent-tools", "sessions"), nil
}

// heldSession is a session's lock, held.
type heldSession struct {
	f    *os.File
	path string
}

// holdSession makes and locks the session's file in dir (sessionDir).
func holdSession(dir, session string) (*heldSession, error) {
	dir, err := sessionDir(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("remote: the session folder: %w", err)
	}
	path := filepath.Join(dir, session+".lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("remote: the session lock: %w", err)
	}
	if ok, err := lockFile(f); err != nil || !ok {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("remote: lock the session %s: %v", session, err)
	}
	return &heldSession{f: f, path: path}, nil
}

// release removes the session's file and lets go of its lock.
func (h *heldSession) release() {
	os.Remove(h.path)
	h.f.Close()
}

// waitSession waits until the session's process has ended: its lock file
// is gone, or its lock can be taken. It removes a file left by a process
// that ended without removing it.
func waitSession(ctx context.Context, dir, session string) error {
	if session == "" || strings.ContainsAny(session, `/\.`) {
		return errors.New("no such session")
	}
	dir, err := sessionDir(dir)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, session+".lock")
	for {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		ok, err := lockFile(f)
		if ok {
			os.Remove(path)
		}
		f.Close()
		if ok || err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// expandHome reads a leading ~ or ~/ as the user's home, as a shell would
// have had the path been typed there.
func expandHome(dir string) (string, error) {
	if dir != "~" && !strings.HasPrefix(dir, "~/") {
		return dir, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, strings.TrimPrefix(dir[1:], "/")), nil
}
