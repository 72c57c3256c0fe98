//go:build unix

package remote

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes f's exclusive lock without waiting: ok is false where
// another process holds it.
func lockFile(f *os.File) (ok bool, err error) {
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
