package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"

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
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	info, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return appCacheVersion + "/" + strconv.Itoa(definitions.CacheVersion) + "/" +
		strconv.FormatInt(info.Size(), 10) + "/" + strconv.FormatInt(info.ModTime().UnixNano(), 10)
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
	data := encodeApp(appKey, stampsDigest(stamps), a)
	if data == nil {
		return
	}
	r.cache.write(appFile, data)
}

// loadApp reads the app snapshot, where it fits the stamps now.
func (r *Runner) loadApp(now map[string]definitions.Stamp) *app {
	if r.cache.dir == "" || appKey == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(r.cache.dir, appFile))
	if err != nil {
		return nil
	}
	key, digest, a, err := decodeApp(data)
	if err != nil || key != appKey || !bytes.Equal(digest, stampsDigest(now)) {
		return nil
	}
	return a
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
	res, err = r.run(ctx, a, nil, indexSource{root: r.root}, req)
	return res, true, stoppedEarly(ctx, err)
}

// write puts data in the cache folder as name, atomically.
func (c *bundleCache) write(name string, data []byte) {
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
