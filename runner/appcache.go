package runner

import (
	"bytes"
	"context"
	"encoding/gob"
	"os"
	"path/filepath"
	"strconv"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/runner/testdb"
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

// appSnapshot is an app as the disk keeps it, with what it was made from.
type appSnapshot struct {
	// Key is appKey when it was written: the snapshot's version, the index
	// cache's version, and the stamp of the program that wrote it, so a
	// new build of tent-tools reads the project again.
	Key string
	// Stamps are the project files the app was read from (each file the
	// index may hold, and the .gitignore files), by path.
	Stamps map[string]definitions.Stamp

	Callables   map[string]*callable
	Tables      map[string]*tableDef
	Kinds       map[string]string
	Users       string
	Model       *testdb.Model // without its test data
	HTTPAllow   []string
	MailFrom    string
	Private     map[string]bool
	Fingerprint string
	// TestData is the model's test data, gob-encoded apart: decoding it
	// took half of a run's time, and a run needs it only to create a table.
	TestData []byte
}

func init() {
	// The values of test data rows and of column defaults, as
	// encoding/json decodes them.
	gob.Register([]any{})
	gob.Register(map[string]any{})
}

// appKey is the key an app snapshot must carry to be read: "" where the
// program's own file cannot be stamped (then no snapshot is kept).
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

// snapshotOf is the app a, read from an index, with the stamps it was read by.
func snapshotOf(a *app, stamps map[string]definitions.Stamp) (*appSnapshot, error) {
	var data bytes.Buffer
	if err := gob.NewEncoder(&data).Encode(a.model.TestData); err != nil {
		return nil, err
	}
	return &appSnapshot{
		Key: appKey, Stamps: stamps,
		Callables: a.callables, Tables: a.tables, Kinds: a.kinds, Users: a.users,
		Model:     &testdb.Model{Tables: a.model.Tables, Removed: a.model.Removed},
		HTTPAllow: a.httpAllow, MailFrom: a.mailFrom, Private: a.private, Fingerprint: a.fingerprint,
		TestData: data.Bytes(),
	}, nil
}

// app is the app the snapshot holds.
func (s *appSnapshot) app() *app {
	s.Model.Fingerprint = s.Fingerprint
	data := s.TestData
	s.Model.LoadTestData = func() (map[string][]map[string]any, error) {
		var rows map[string][]map[string]any
		if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&rows); err != nil {
			return nil, err
		}
		return rows, nil
	}
	// gob leaves out empty maps; nil ones read the same, and an app is
	// never written to once made.
	return &app{
		callables: s.Callables, tables: s.Tables, kinds: s.Kinds, users: s.Users, model: s.Model,
		httpAllow: s.HTTPAllow, mailFrom: s.MailFrom, private: s.Private, fingerprint: s.Fingerprint,
	}
}

// fits reports whether the snapshot was made from files with exactly the
// stamps the walk found now: the same paths, each with the same stamp, and
// none stamped so soon after a change that its stamp proves nothing
// (definitions.Stamp.Racy).
func (s *appSnapshot) fits(now map[string]definitions.Stamp) bool {
	if s.Key != appKey || len(s.Stamps) != len(now) {
		return false
	}
	for p, st := range now {
		old, ok := s.Stamps[p]
		if !ok || !old.Same(st) || old.Racy() {
			return false
		}
	}
	return true
}

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
	snap, err := snapshotOf(a, stamps)
	if err != nil {
		return
	}
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(snap) != nil {
		return
	}
	r.cache.write(appFile, buf.Bytes())
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
	var s appSnapshot
	if gob.NewDecoder(bytes.NewReader(data)).Decode(&s) != nil || s.Model == nil || !s.fits(now) {
		return nil
	}
	return s.app()
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
