// Package durable makes many written files durable at once where the
// platform can: on Linux one syncfs(2) on their filesystem in place of an
// fsync per file (a change that writes 583 files paid 583 fsyncs); on
// every other platform the files are synced one by one (in parallel).
package durable

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sync/errgroup"
)

// ErrUnsupported is SyncFS's error where the platform has no syncfs: the
// caller syncs each file.
var ErrUnsupported = errors.New("durable: syncfs is not supported on this platform")

// WholeFS says SyncFS is supported here: a caller may leave each file
// unsynced and call SyncFS once for all of them. On Linux that needs a
// kernel of 5.8 or later, whose syncfs reports a write error (an older one
// reports none, where fsync would).
func WholeFS() bool { return wholeFS }

// SyncFS makes every file written on the filesystem that holds f (an
// open file or folder) durable, with their names, before it returns (on
// Linux, syncfs(2): it waits for the writes, as fsync on every file of
// the filesystem would, and reports a write error since f was opened).
// It is ErrUnsupported where WholeFS is false.
func SyncFS(f *os.File) error {
	if !wholeFS {
		return fmt.Errorf("sync the filesystem of %s: %w", f.Name(), ErrUnsupported)
	}
	if err := syncFS(f); err != nil {
		return fmt.Errorf("sync the filesystem of %s: %w", f.Name(), err)
	}
	return nil
}

// SyncEach fsyncs each of the files open returns by name, in parallel
// (the fallback where SyncFS cannot be used). open must open a file for
// reading, and is called from several goroutines at once; an fsync on it
// syncs the file's data, whoever wrote it.
func SyncEach(names []string, open func(name string) (*os.File, error)) error {
	var g errgroup.Group
	g.SetLimit(8)
	for _, name := range names {
		g.Go(func() error {
			f, err := open(name)
			if err != nil {
				return fmt.Errorf("sync %s: %w", name, err)
			}
			defer f.Close()
			if err := f.Sync(); err != nil {
				return fmt.Errorf("sync %s: %w", name, err)
			}
			return nil
		})
	}
	return g.Wait()
}
