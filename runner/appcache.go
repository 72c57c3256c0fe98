package runner

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/tent-tools/tent-tools/definitions"
)

// A run needs the project's schema, its callables and its test data, not
// the index of its code: on a project of 1,000 tables, loading the index
// cache takes three times the 100 ms a run may take. So the runner keeps
// what it read of an index (the app) in .tent/cache/app, with the stamps
// of the project files that index was read from. A new process whose walk
// finds every file with the same stamp runs from it without the index
// (RunStamped); any difference, and the caller reads the index as before.

// appCacheVersion changes when the shape of the app snapshot or the way an
// app is read from an index changes.
const appCacheVersion = "1"

// appFile is the app snapshot's file in the cache folder.
const appFile = "app"

// appKey is the key an app snapshot must carry to be read: "" where the
// program's own file cannot be stamped (then no snapshot is kept). It
// holds the snapshot's version, the index cache's version, and the stamp
// of the program that wrote it, so a new build of tent-tools reads the
// project again.
var appKey = func() string {
	if b := definitions.BuildStamp(); b != "" {
		return appCacheVersion + "/" + b
	}
	return ""
}()

// KeepApp keeps what runs need of ix in the cache folder, with stamps, the
// stamps of the project files ix was read from (each file the index may
// hold, and the .gitignore files), so that a later process that finds the
// same stamps runs without reading the index (RunStamped). The caller
// vouches that ix is the files as on the disk (no editor's unsaved text)
// and that it defines no name twice. It writes once per snapshot; the
// cache only saves time, so a failure to write it is no failure.
func (r *Runner) KeepApp(ix *definitions.Index, stamps map[string]definitions.Stamp) {
	if r.cache.dir == "" || appKey == "" {
		return
	}
	a := r.app(ix)
	r.mu.Lock()
	if r.keptIx == ix {
		r.mu.Unlock()
		return
	}
	r.keptIx = ix
	r.mu.Unlock()
	if anyRacy(stamps) {
		// A file changed too shortly before it was stamped: a second
		// change within the same tick would keep its stamp. The next
		// process reads the index, and keeps the app then.
		return
	}
	if !allStamped(ix, stamps) {
		// A file read through a link has no stamp of its own (the walk
		// stamps regular files): the link could be pointed elsewhere
		// with no stamp changing, and the snapshot would still fit.
		return
	}
	data := encodeApp(appKey, stampsDigest(stamps), a)
	if data == nil {
		return
	}
	r.cache.write(appFile, data)
}

// snapshot is an app snapshot as read from the disk.
type snapshot struct {
	key    string
	digest []byte
	app    *app
}

// readApp reads the app snapshot; nil where there is none that decodes.
func (r *Runner) readApp() *snapshot {
	data, err := r.cache.read(appFile)
	if err != nil {
		return nil
	}
	key, digest, a, err := decodeApp(data)
	if err != nil {
		return nil
	}
	return &snapshot{key: key, digest: digest, app: a}
}

// Prefetch starts reading the app snapshot, and opening the test database
// where it exists, for a RunStamped to come: a new process walks the
// project meanwhile (its caller does), so that on a machine of two cores
// the run waits for the longest of the three, not for their sum. Where
// RunStamped does not come, what was read is dropped, and the database
// serves the run from the index.
func (r *Runner) Prefetch() {
	if p := r.workers(); p != nil {
		// A worker starts meanwhile too, and opens the test database as
		// it starts.
		p.warm()
	}
	if r.cache.dir == "" || appKey == "" {
		return
	}
	r.snapMu.Lock()
	if r.snapRead == nil && r.snapLast == nil {
		done := make(chan struct{})
		r.snapRead = done
		go func() {
			defer close(done)
			s := r.readApp()
			r.snapMu.Lock()
			r.snapData = s
			r.snapMu.Unlock()
		}()
	}
	r.snapMu.Unlock()
	if r.workers() == nil {
		r.early.Go(r.openEarly)
	}
}

// openEarly opens the test database, where it exists, unless a run has
// opened it. A database that does not open is left to the run, which says
// why. Close waits for it.
func (r *Runner) openEarly() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.db != nil {
		return
	}
	if _, err := os.Stat(TestDBPath(r.root)); err != nil {
		return
	}
	if db, err := r.openTestDB(context.Background()); err == nil {
		r.db = db
	}
}

// loadApp answers the app of the snapshot, where it was made from files
// with the stamps now: the one the last run used where it still fits, or
// the one Prefetch read, or the one on the disk now.
func (r *Runner) loadApp(now map[string]definitions.Stamp) *app {
	if r.cache.dir == "" || appKey == "" {
		return nil
	}
	digest := stampsDigest(now)
	r.snapMu.Lock()
	done := r.snapRead
	r.snapMu.Unlock()
	if done != nil {
		<-done
	}
	r.snapMu.Lock()
	s, last := r.snapData, r.snapLast
	r.snapData, r.snapRead = nil, nil
	r.snapMu.Unlock()
	if last != nil && bytes.Equal(last.digest, digest) {
		return last.app
	}
	if s == nil || !bytes.Equal(s.digest, digest) {
		s = r.readApp()
	}
	if s == nil || s.key != appKey || !bytes.Equal(s.digest, digest) {
		return nil
	}
	r.snapMu.Lock()
	r.snapLast = s
	r.snapMu.Unlock()
	return s.app
}

// RunStamped is Run for a process that has not read the index: stamps are
// the project files as its walk found them (each file the index may hold,
// and the .gitignore files). Where the app snapshot that KeepApp wrote was
// made from files with exactly these stamps, it runs the request on it,
// reading the code from the project folder, and answers ok; otherwise it
// runs nothing and answers ok == false, and the caller reads the index and
// calls Run.
func (r *Runner) RunStamped(ctx context.Context, stamps map[string]definitions.Stamp, req Request) (res *Result, ok bool, err error) {
	a := r.loadApp(stamps)
	if a == nil {
		return nil, false, nil
	}
	res, err = r.run(ctx, a, indexSource{root: r.root}, req)
	return res, true, stoppedEarly(ctx, err)
}

// write puts data in the cache folder as name, atomically.
func (c *bundleCache) write(name string, data []byte) {
	if c.held != nil {
		c.writeHeld(name, data)
		return
	}
	if os.MkdirAll(c.dir, 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(c.dir, "."+name+"-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(c.dir, name)) != nil {
		os.Remove(tmp.Name())
	}
}

// read answers the file name of the cache folder.
func (c *bundleCache) read(name string) ([]byte, error) {
	if c.held == nil {
		return os.ReadFile(filepath.Join(c.dir, name))
	}
	dir, err := c.openHeld(false)
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	fd, err := unix.Openat(int(dir.Fd()), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	return io.ReadAll(f)
}

// openHeld opens the cache folder in the held .tent folder (made where
// mkdir), following no link: a .tent or a cache swapped for a link cannot
// hand a run another app or another bundle.
func (c *bundleCache) openHeld(mkdir bool) (*os.File, error) {
	state, err := c.held()
	if err != nil {
		return nil, err
	}
	defer state.Close()
	if mkdir {
		if err := unix.Mkdirat(int(state.Fd()), CacheDir, 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
			return nil, err
		}
	}
	fd, err := unix.Openat(int(state.Fd()), CacheDir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), c.dir), nil
}

// writeHeld is write through the held folder: a new file beside name,
// renamed over it.
func (c *bundleCache) writeHeld(name string, data []byte) {
	dir, err := c.openHeld(true)
	if err != nil {
		return
	}
	defer dir.Close()
	var salt [8]byte
	if _, err := rand.Read(salt[:]); err != nil {
		return
	}
	tmp := "." + name + "-" + hex.EncodeToString(salt[:])
	fd, err := unix.Openat(int(dir.Fd()), tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(fd), tmp)
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil || cerr != nil || unix.Renameat(int(dir.Fd()), tmp, int(dir.Fd()), name) != nil {
		unix.Unlinkat(int(dir.Fd()), tmp, 0)
	}
}

// allStamped reports whether every file of ix, and every .gitignore it
// follows, has a stamp in stamps.
func allStamped(ix *definitions.Index, stamps map[string]definitions.Stamp) bool {
	for _, f := range ix.Files() {
		if _, ok := stamps[f.Path]; !ok {
			return false
		}
	}
	for p := range ix.IgnoreFiles() {
		if _, ok := stamps[p]; !ok {
			return false
		}
	}
	return true
}
