package workspace

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"

	"github.com/tent-tools/tent-tools/diag"
)

// locks keep the changes of a workspace one after another and whole, in
// this process and across processes (the CLI, an LSP server and a host may
// act on one folder at once). Two locks, each a mutex for this process and
// a file lock (flock) in .tent/ for the others:
//
//   - the write lock (.tent/write.lock) is held by a tool that writes for
//     all its run: two writes never interleave, so two edits of one file
//     both land;
//   - the commit lock (.tent/read.lock) is held shared by a tool that only
//     reads, for all its run, and exclusively by a write only while its
//     files are renamed into place: a reader sees every file of a change
//     old, or every file new, and never waits for a person's yes.
//
// The order is always write lock, then commit lock; a reader holding the
// commit lock only ever tries the write lock without waiting.
type locks struct {
	writeMu  sync.Mutex
	commitMu sync.RWMutex

	mu        sync.Mutex // guards what follows
	writeF    *os.File   // .tent/write.lock, opened on first use
	commitF   *os.File   // .tent/read.lock
	readers   int        // readers in this process holding the shared file lock
	openError error      // why the lock files could not be opened (a read-only folder)
}

// Lock file names in .tent/.
const (
	writeLockFile  = "write.lock"
	commitLockFile = "read.lock"
)

// files opens the lock files on first use. Where .tent/ cannot be made
// (a read-only folder), it returns the error: reads then go on with the
// in-process locks alone, writes fail anyway.
func (w *Workspace) lockFiles() (writeF, commitF *os.File, err error) {
	l := &w.locks
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.writeF != nil {
		return l.writeF, l.commitF, nil
	}
	if l.openError != nil {
		return nil, nil, l.openError
	}
	open := func(name string) (*os.File, error) {
		if _, err := w.stateDir(); err != nil {
			return nil, err
		}
		rel := stateFolder + "/" + name
		if err := noLink(w.fsys, rel); err != nil {
			return nil, err
		}
		return w.fsys.OpenFile(rel, os.O_RDWR|os.O_CREATE, 0o644)
	}
	wf, err := open(writeLockFile)
	if err != nil {
		l.openError = fmt.Errorf("lock: %w", err)
		return nil, nil, l.openError
	}
	cf, err := open(commitLockFile)
	if err != nil {
		wf.Close()
		l.openError = fmt.Errorf("lock: %w", err)
		return nil, nil, l.openError
	}
	l.writeF, l.commitF = wf, cf
	return wf, cf, nil
}

// close closes the lock files.
func (l *locks) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var errs []error
	for _, f := range []*os.File{l.writeF, l.commitF} {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	l.writeF, l.commitF = nil, nil
	return errors.Join(errs...)
}

// flock applies a file lock operation, again where a signal cut it short.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// lockWrite takes the write lock, waiting for it.
func (w *Workspace) lockWrite() (unlock func(), err error) {
	wf, _, err := w.lockFiles()
	if err != nil {
		return nil, err
	}
	return lockExclusive(&w.locks.writeMu, wf, writeLockFile)
}

// lockExclusive takes mu, then the file lock of f (the lock file name)
// exclusively, waiting for each; unlock lets go of both.
func lockExclusive(mu sync.Locker, f *os.File, name string) (unlock func(), err error) {
	mu.Lock()
	if err := flock(f, syscall.LOCK_EX); err != nil {
		mu.Unlock()
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	return func() {
		flock(f, syscall.LOCK_UN)
		mu.Unlock()
	}, nil
}

// tryLockWrite takes the write lock where nobody holds it; ok is false
// where someone does (or the lock files cannot be opened).
func (w *Workspace) tryLockWrite() (unlock func(), ok bool) {
	wf, _, err := w.lockFiles()
	if err != nil {
		return nil, false
	}
	if !w.locks.writeMu.TryLock() {
		return nil, false
	}
	if err := flock(wf, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		w.locks.writeMu.Unlock()
		return nil, false
	}
	return func() {
		flock(wf, syscall.LOCK_UN)
		w.locks.writeMu.Unlock()
	}, true
}

// lockRead takes the commit lock shared, for a tool that only reads. The
// processes' shared file lock is taken by the first reader of this process
// and let go by the last, since a file lock belongs to the open file, not
// to a goroutine.
func (w *Workspace) lockRead() (unlock func(), err error) {
	_, cf, ferr := w.lockFiles()
	if isCode(ferr, diag.T9105) {
		return nil, ferr // .tent/ is a link: refused for every tool, also a reader
	}
	l := &w.locks
	l.commitMu.RLock()
	l.mu.Lock()
	if l.readers == 0 && ferr == nil {
		if err := flock(cf, syscall.LOCK_SH); err != nil {
			l.mu.Unlock()
			l.commitMu.RUnlock()
			return nil, fmt.Errorf("lock %s: %w", commitLockFile, err)
		}
	}
	l.readers++
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		if l.readers--; l.readers == 0 && ferr == nil {
			flock(cf, syscall.LOCK_UN)
		}
		l.mu.Unlock()
		l.commitMu.RUnlock()
	}, nil
}

// lockCommit takes the commit lock exclusively, while a write's files are
// renamed into place (the write lock is held already).
func (w *Workspace) lockCommit() (unlock func(), err error) {
	_, cf, err := w.lockFiles()
	if err != nil {
		return nil, err
	}
	return lockExclusive(&w.locks.commitMu, cf, commitLockFile)
}
