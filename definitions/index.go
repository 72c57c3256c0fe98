package definitions

import (
	"bytes"
	"context"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/spelling"
	"github.com/tent-tools/tent-tools/schema"
)

// Index is an immutable snapshot of a project's index. It is safe for
// concurrent use. Its *File values are shared with the snapshots Update
// makes from it, and must not be changed.
type Index struct {
	files  fileMap
	sorted *fileList // by path
	ignore *ignoreSet

	// The views over all files, made on first use: Update then costs the
	// one file it re-reads, not a pass over the project. Definitions by
	// name come from the lineage's join where they can (codeindex.go).
	once     sync.Once
	defs     []*Definition
	findings []diag.Finding

	// The shared namespace by name (codeindex.go), made on first use
	// apart from the views: a lookup by name costs the files changed
	// since the lineage's join, not a pass over every file.
	namesOnce sync.Once
	names     *nameIndex

	// The code lookups (codeindex.go), made on first use, from the join
	// that the snapshots of one lineage share where they can.
	codeOnce sync.Once
	codeIx   *codeIndex
	lineage  *codeLineage

	// The row sites (rowsites.go), joined on first use.
	rowsOnce sync.Once
	rowsBy   rowSiteMap

	// log is the lineage's log of changes and at this snapshot's number
	// in it (ChangedSince).
	log *changeLog
	at  uint64
}

// changeLog is the log of the snapshots of one lineage (those Update and
// UpdateFiles make from one Build, in a line or branching): each one's
// number, the number of the snapshot it was made from and the paths in
// which the two differ, so that a caller that checked one snapshot learns
// what differs in a later one without comparing every file
// (ChangedSince). It keeps the last maxChangeSteps steps, a few paths
// each: no snapshot is kept.
type changeLog struct {
	mu    sync.Mutex
	last  uint64
	steps map[uint64]changeStep
	order []uint64 // the kept steps' numbers, oldest first
}

// changeStep is how one snapshot was made: from which, changing which
// paths.
type changeStep struct {
	from  uint64
	paths []string
}

// maxChangeSteps bounds a changeLog: a caller that looks again after more
// snapshots than that compares the files.
const maxChangeSteps = 256

// record numbers a snapshot made from the one numbered from by changing
// paths.
func (l *changeLog) record(from uint64, paths []string) uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.steps == nil {
		l.steps = map[uint64]changeStep{}
	}
	l.last++
	l.steps[l.last] = changeStep{from: from, paths: paths}
	l.order = append(l.order, l.last)
	if len(l.order) > maxChangeSteps {
		delete(l.steps, l.order[0])
		l.order = l.order[1:]
	}
	return l.last
}

// SnapshotID names a snapshot within its lineage, for ChangedSince,
// without keeping it. The zero SnapshotID names none.
type SnapshotID struct {
	log *changeLog
	at  uint64
}

// ID returns the id of this snapshot.
func (ix *Index) ID() SnapshotID { return SnapshotID{log: ix.log, at: ix.at} }

// ChangedSince answers the paths of the files in which ix differs from
// the snapshot m names (changed, come or gone), sorted, where ix was made
// from that one by Updates and UpdateFiles (within the last
// maxChangeSteps of its lineage). Where that is not known (the zero
// SnapshotID, another Build, a snapshot not made from m's, or made too
// long after it), ok is false: compare the files. A path may be answered
// whose file is the same again.
func (ix *Index) ChangedSince(m SnapshotID) (paths []string, ok bool) {
	if m.log == nil || m.log != ix.log {
		return nil, false
	}
	if m.at == ix.at {
		return []string{}, true
	}
	l := ix.log
	l.mu.Lock()
	defer l.mu.Unlock()
	for at, n := ix.at, 0; at != m.at; n++ {
		st, found := l.steps[at]
		if !found || n == maxChangeSteps {
			return nil, false
		}
		paths = append(paths, st.paths...)
		at = st.from
	}
	slices.Sort(paths)
	return slices.Compact(paths), true
}

// anchor says that the snapshot at has the files of a join but for the
// paths off (sorted, the files of at that differ from the join's): from
// it, the log tells which files of a later snapshot differ from the
// join's without comparing every file.
type anchor struct {
	at  SnapshotID
	off []string
}

// anchorJoin keeps the anchor of a new join, made from the snapshot id,
// in place of the one of the join it replaces (old, nil for none); l.mu
// is held.
func (l *codeLineage) anchorJoin(old, joined any, id SnapshotID) {
	if l.anchors == nil {
		l.anchors = map[any]anchor{}
	}
	if old != nil {
		delete(l.anchors, old)
	}
	l.anchors[joined] = anchor{at: id}
}

// changedFrom answers what changedFiles(base, ix.sorted) does (the files
// of ix that differ from base's, the files of the lineage's join; ok
// where the paths are the same and at most maxOverlay differ), told by
// the lineage's log from the join's anchor where it can, so that a
// keystroke compares the few files that changed since, not every file.
// It moves the anchor to ix.
func (ix *Index) changedFrom(join any, base []*File) ([]*File, bool) {
	l := ix.lineage
	l.mu.Lock()
	a, anchored := l.anchors[join]
	l.mu.Unlock()
	var changed []*File
	ok := false
	told := false
	if anchored && len(base) == ix.sorted.len() {
		if paths, known := ix.ChangedSince(a.at); known {
			told = true
			changed, ok = changedAt(base, ix.sorted, append(paths, a.off...))
		}
	}
	if !told {
		changed, ok = changedFiles(base, ix.sorted.all())
	}
	if ok && anchored {
		off := make([]string, len(changed))
		for i, f := range changed {
			off[i] = f.Path
		}
		l.mu.Lock()
		if _, still := l.anchors[join]; still {
			l.anchors[join] = anchor{at: ix.ID(), off: off}
		}
		l.mu.Unlock()
	}
	return changed, ok
}

// changedAt is changedFiles(base, now) where only the files at paths
// (in any order, repeated) can differ: the files of now at those paths
// that are not base's, in path order, and ok where each of the paths
// is at the same place in both (none came or went) and at most
// maxOverlay differ.
func changedAt(base []*File, now *fileList, paths []string) ([]*File, bool) {
	if len(base) != now.len() {
		return nil, false
	}
	slices.Sort(paths)
	var changed []*File
	for _, p := range slices.Compact(paths) {
		i, inNow := now.search(p)
		inBase := i < len(base) && base[i].Path == p
		switch {
		case !inNow && !inBase:
			continue // came and went again
		case !inNow || !inBase:
			return nil, false
		case now.at(i) == base[i]:
			continue
		case len(changed) == maxOverlay:
			return nil, false
		}
		changed = append(changed, now.at(i))
	}
	return changed, true
}

// derived returns a new snapshot of ix's lineage made from ix by changing
// paths (its files and sorted lists to be set by the caller).
func (ix *Index) derived(paths ...string) *Index {
	next := &Index{ignore: ix.ignore, lineage: ix.lineage, log: ix.log}
	next.at = ix.log.record(ix.at, paths)
	return next
}

// code returns the snapshot's code lookups, made on first use.
func (ix *Index) code() *codeIndex {
	ix.codeOnce.Do(func() { ix.codeIx = newCodeIndex(ix) })
	return ix.codeIx
}

// newIndex makes a snapshot of files, in any order.
func newIndex(files []*File, ign *ignoreSet) *Index {
	byPath := make(map[string]*File, len(files))
	for _, f := range files {
		byPath[f.Path] = f
	}
	ix := &Index{files: fileMap{base: byPath}, ignore: ign, lineage: &codeLineage{}, log: &changeLog{}}
	sorted := make([]*File, 0, len(byPath))
	for _, f := range byPath {
		sorted = append(sorted, f)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	ix.sorted = newFileList(sorted)
	return ix
}

// views makes the views over all files once.
func (ix *Index) views() {
	ix.once.Do(func() {
		n := 0
		for _, f := range ix.sorted.all() {
			n += len(f.Definitions)
		}
		ix.defs = make([]*Definition, 0, n)
		for _, f := range ix.sorted.all() {
			ix.defs = append(ix.defs, f.Definitions...)
			ix.findings = append(ix.findings, f.Findings...)
		}
		diag.Sort(ix.findings)
	})
}

// nameIx returns the snapshot's definitions by name, made on first use.
func (ix *Index) nameIx() *nameIndex {
	ix.namesOnce.Do(func() { ix.names = newNameIndex(ix) })
	return ix.names
}

// Update returns a new snapshot with one file replaced (src == nil: the
// file is gone). It re-parses only that file, incrementally from its old
// tree, and shares every other *File with ix; ix itself is unchanged. A
// path that is not indexed (not .ts, .tsx or testdata/*.json, a skipped
// folder, a framework file, or named by a .gitignore read at Build) gives
// ix back. The index keeps src: the caller must not change it afterwards.
//
// Update does not re-read .gitignore files: a change to one needs a new
// Build.
func (ix *Index) Update(p string, src []byte) *Index {
	p = cleanPath(p)
	if _, ok := langOf(p); !ok || p == "" || ix.ignore.ignored(p, false) {
		return ix
	}
	old := ix.files.get(p)
	if src == nil && old == nil {
		return ix
	}
	if src != nil && old != nil && old.Src != nil && bytes.Equal(old.Src, src) {
		return ix
	}
	next := ix.derived(p)
	i, _ := ix.sorted.search(p)
	if src == nil {
		next.files = ix.files.with(p, nil)
		next.sorted = ix.sorted.deleted(i)
		return next
	}
	w, _ := ix.lineage.scratch.Get().(*worker)
	if w == nil {
		w = &worker{}
	}
	f := w.indexFile(context.Background(), p, src, old)
	ix.lineage.scratch.Put(w)
	next.files = ix.files.with(p, f)
	if old != nil {
		next.sorted = ix.sorted.replaced(i, f)
	} else {
		next.sorted = ix.sorted.inserted(i, f)
	}
	return next
}

// FileChange is one file's new state, for UpdateFiles.
type FileChange struct {
	Path string
	// Src is the new text (kept by the index: the caller must not change
	// it afterwards); nil where Gone or Err is set.
	Src []byte
	// Gone says the file is deleted.
	Gone bool
	// Err is why the file could not be read: it is indexed as a file
	// with a T1003 finding, as Build indexes it.
	Err error
}

// Indexes reports whether the index holds a file at path p where the file
// exists: a .ts, .tsx or testdata/*.json file outside the skipped folders,
// no framework file, not named by the .gitignore files read at Build.
func (ix *Index) Indexes(p string) bool {
	p = cleanPath(p)
	_, ok := langOf(p)
	return ok && p != "" && !ix.ignore.ignored(p, false)
}

// UpdateFiles returns a new snapshot with the changed files replaced, as
// Update does one by one, but reading the files in parallel: the way to
// bring a snapshot up to date with many files at once (an index loaded
// from the cache, a checkout). Changes of paths the index does not hold,
// and texts equal to the indexed ones, change nothing; ix itself is
// unchanged. Read in parallel, a file keeps a syntax tree only where its
// old version had one (Options.DropTrees).
func (ix *Index) UpdateFiles(ctx context.Context, changes []FileChange) *Index {
	var todo []FileChange
	for _, c := range changes {
		c.Path = cleanPath(c.Path)
		// A file the index holds it indexes (its rules never change):
		// asking the .gitignore rules of each of thousands of paths
		// costs a fresh copy's first look (every stamp changed).
		old := ix.files.get(c.Path)
		if old == nil && !ix.Indexes(c.Path) {
			continue
		}
		switch {
		case c.Gone && old == nil:
		case c.Gone || c.Err != nil:
			todo = append(todo, c)
		case old == nil || old.Src == nil || !bytes.Equal(old.Src, c.Src):
			todo = append(todo, c)
		}
	}
	// A few files go one by one: Update keeps the joins of the lineage,
	// so the next lookups join the few changed files only.
	if len(todo) <= parallelUpdates {
		for _, c := range todo {
			switch {
			case c.Gone:
				ix = ix.Update(c.Path, nil)
			case c.Err != nil:
				ix = ix.replaced(map[string]*File{c.Path: unreadableFile(c.Path, c.Err)})
			default:
				ix = ix.Update(c.Path, c.Src)
			}
		}
		return ix
	}
	// Many files at once are a checkout, a rename's plan, a cache's
	// stale files: they keep no trees but those that had one (see
	// Options.DropTrees).
	var next atomic.Int64
	read := runWorkers(ctx, Options{DropTrees: true}, func(w *worker) (out []*File) {
		for i := int(next.Add(1) - 1); i < len(todo); i = int(next.Add(1) - 1) {
			c := todo[i]
			switch {
			case c.Gone:
			case c.Err != nil:
				out = append(out, unreadableFile(c.Path, c.Err))
			default:
				out = append(out, w.indexFile(ctx, c.Path, c.Src, ix.files.get(c.Path)))
			}
		}
		return out
	})
	put := make(map[string]*File, len(todo))
	for _, c := range todo {
		if c.Gone {
			put[c.Path] = nil
		}
	}
	for _, f := range read {
		put[f.Path] = f
	}
	return ix.replaced(put)
}

// parallelUpdates is how many changed files UpdateFiles reads one by one,
// on one goroutine; beyond it they are read in parallel.
const parallelUpdates = 4

// replaced returns a new snapshot with the files of put in place of ix's
// (nil: the file is gone), sharing the rest and the lineage's joins.
func (ix *Index) replaced(put map[string]*File) *Index {
	changed := make([]string, 0, len(put))
	for p := range put {
		changed = append(changed, p)
	}
	next := ix.derived(changed...)
	if len(ix.files.over)+len(put) <= maxFileOverlay {
		over := make(map[string]*File, len(ix.files.over)+len(put))
		maps.Copy(over, ix.files.over)
		maps.Copy(over, put)
		next.files = fileMap{base: ix.files.base, over: over}
	} else {
		base := make(map[string]*File, ix.sorted.len()+len(put))
		for _, f := range ix.sorted.all() {
			base[f.Path] = f
		}
		for p, f := range put {
			if f == nil {
				delete(base, p)
			} else {
				base[p] = f
			}
		}
		next.files = fileMap{base: base}
	}
	// The sorted files: ix's, merged with put's in path order (a copy
	// and a search per changed path, no sort of every file).
	paths := make([]string, 0, len(put))
	for p := range put {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	sorted := make([]*File, 0, ix.sorted.len()+len(paths))
	rest := ix.sorted.all()
	for _, p := range paths {
		i := sort.Search(len(rest), func(i int) bool { return rest[i].Path >= p })
		sorted = append(sorted, rest[:i]...)
		if i < len(rest) && rest[i].Path == p {
			i++ // replaced or gone
		}
		rest = rest[i:]
		if f := put[p]; f != nil {
			sorted = append(sorted, f)
		}
	}
	next.sorted = newFileList(append(sorted, rest...))
	return next
}

// fileMap maps paths to files for one snapshot: base, a map shared by
// snapshots and never changed, under over, the paths that Updates changed
// since (nil where a file is gone). Each Update copies over, not base, so
// that it costs the one file and not a copy of a map of all files; past
// maxFileOverlay paths, an Update folds over into a new base.
type fileMap struct {
	base map[string]*File
	over map[string]*File
}

// maxFileOverlay bounds fileMap.over: a copy of it costs about 1/64 of a
// copy of the base of a large project, and a fold every 64 Updates the
// same again.
const maxFileOverlay = 64

// get returns the file at path p, or nil.
func (m fileMap) get(p string) *File {
	if f, ok := m.over[p]; ok {
		return f
	}
	return m.base[p]
}

// with returns m with the file at path p replaced by f (nil: gone); m is
// unchanged.
func (m fileMap) with(p string, f *File) fileMap {
	if len(m.over) < maxFileOverlay {
		over := make(map[string]*File, len(m.over)+1)
		maps.Copy(over, m.over)
		over[p] = f
		return fileMap{base: m.base, over: over}
	}
	base := maps.Clone(m.base)
	for q, g := range m.over {
		if g == nil {
			delete(base, q)
		} else {
			base[q] = g
		}
	}
	if f == nil {
		delete(base, p)
	} else {
		base[p] = f
	}
	return fileMap{base: base}
}

// Files returns the indexed files, sorted by path.
func (ix *Index) Files() []*File {
	return append([]*File(nil), ix.sorted.all()...)
}

// SortedFiles returns the indexed files, sorted by path, as Files does,
// but the snapshot's own list, not a copy: the caller must not change it.
// It is for a caller that looks at the files on every change (the
// incremental check), which would otherwise copy them all each time.
func (ix *Index) SortedFiles() []*File {
	return ix.sorted.all()
}

// File returns the indexed file at path, or nil.
func (ix *Index) File(p string) *File {
	return ix.files.get(cleanPath(p))
}

// Definitions returns every definition, project and engine included,
// sorted by path and then by position in the file.
func (ix *Index) Definitions() []*Definition {
	ix.views()
	return append([]*Definition(nil), ix.defs...)
}

// Definition returns the definition of the shared namespace (not project
// or engine) called name, the first by path order where several are, or
// nil.
func (ix *Index) Definition(name string) *Definition {
	if ds := ix.nameIx().named(name); len(ds) > 0 {
		return ds[0]
	}
	return nil
}

// DefinitionsNamed returns every definition of the shared namespace
// called name, by path order (more than one is T2001 for the check).
func (ix *Index) DefinitionsNamed(name string) []*Definition {
	return append([]*Definition(nil), ix.nameIx().named(name)...)
}

// Project returns the default export of project.ts, or nil: the first
// project definition by path order.
func (ix *Index) Project() *Definition {
	return ix.nameIx().firstOfKind(KindProject)
}

// Engine returns the default export of engine.ts, or nil: the first engine
// definition by path order.
func (ix *Index) Engine() *Definition {
	return ix.nameIx().firstOfKind(KindEngine)
}

// Findings returns what reading the files found (T1001, T1002, T1003,
// T2010), errors first, then by path and position.
func (ix *Index) Findings() []diag.Finding {
	ix.views()
	return append([]diag.Finding(nil), ix.findings...)
}

// Lookup finds a definition ("orders") or a table's column
// ("orders.buyer"). Every table has the implicit column id (text, unique),
// which has no Prop. Anything not found is a T9103 error that says what
// there is instead.
func (ix *Index) Lookup(target string) (*Definition, *Column, *diag.ToolError) {
	name, col, hasCol := strings.Cut(target, ".")
	def := ix.Definition(name)
	if def == nil {
		msg := "no definition is named `" + name + "`"
		if near := spelling.Nearest(name, ix.nameIx().names()); near != "" {
			msg += "; did you mean `" + near + "`?"
		}
		return nil, nil, diag.Errorf(diag.T9103, "%s", msg).With("name", name)
	}
	if !hasCol {
		return def, nil, nil
	}
	if def.Kind != KindTable || def.Table == nil {
		return nil, nil, diag.Errorf(diag.T9103, "`%s` is a %s, not a table: only tables have columns", name, def.Kind).With("name", target)
	}
	if col == "id" {
		return def, &Column{Schema: &schema.Column{Name: "id", Type: schema.Text, Unique: true}}, nil
	}
	if c := def.Table.Column(col); c != nil {
		return def, c, nil
	}
	cols := []string{"id"}
	for _, c := range def.Table.Columns {
		cols = append(cols, c.Schema.Name)
	}
	msg := "table `" + name + "` has no column `" + col + "`"
	if near := spelling.Nearest(col, cols); near != "" {
		msg += "; did you mean `" + name + "." + near + "`?"
	}
	msg += " (its columns: " + strings.Join(cols, ", ") + ")"
	return nil, nil, diag.Errorf(diag.T9103, "%s", msg).With("name", target)
}

// ResolveImport returns the indexed file that a relative import in file
// from names, or "". './x' may name x.ts, x.tsx, x/index.ts or
// x/index.tsx, and './x.js' names x.ts or x.tsx (TypeScript's rule for
// ES module imports). Bare modules ('tent', 'lodash') and imports that
// leave the project give "".
func (ix *Index) ResolveImport(from, module string) string {
	if !strings.HasPrefix(module, "./") && !strings.HasPrefix(module, "../") && module != "." && module != ".." {
		return ""
	}
	joined := path.Join(path.Dir(cleanPath(from)), module)
	if joined == ".." || strings.HasPrefix(joined, "../") {
		return ""
	}
	var candidates []string
	switch ext := path.Ext(joined); ext {
	case ".ts", ".tsx":
		candidates = append(candidates, joined)
	case ".js", ".mjs", ".cjs":
		stem := strings.TrimSuffix(joined, ext)
		candidates = append(candidates, stem+".ts", stem+".tsx")
	case ".jsx":
		candidates = append(candidates, strings.TrimSuffix(joined, ext)+".tsx")
	}
	candidates = append(candidates, joined+".ts", joined+".tsx", joined+"/index.ts", joined+"/index.tsx")
	for _, c := range candidates {
		if f := ix.files.get(c); f != nil && (f.Lang == LangTS || f.Lang == LangTSX) {
			return c
		}
	}
	return ""
}
