package definitions

import (
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// This file holds the lookups over all files: definitions by name (for
// Definition, Lookup and the rest), and the maps that Places, CodeSites,
// Calls and Sends run on, from a name or a path to what names it, so that
// a query touches only the files that hold the name.
//
// Joining all files costs milliseconds (definitions by name) to tens of
// milliseconds (the code lookups) on a large project, too much to pay
// again for each snapshot that Update makes as an editor types. So joins
// are shared: the snapshots that descend from one Build share a
// codeLineage, which keeps the last full join of each kind (the base). A
// snapshot whose files are the base's but for a few joins only those few
// (the overlay) and answers each lookup from both: the base's entries of
// unchanged files, then the overlay's.

// maxOverlay is how many changed files a snapshot joins on its own before
// it makes a new base: beyond it, lookups would spend more on leaving out
// the base's stale entries than a new join costs once.
const maxOverlay = 32

// codeLineage is shared by a Build's snapshot and every snapshot Update
// makes from it. It holds the last full joins any of them made.
type codeLineage struct {
	mu    sync.Mutex
	code  *codeJoin
	names *nameJoin
	rows  *rowBase // the last full join of row flows (rowsites.go)
	// anchors are, by join (one of the above), the last snapshot known
	// to have its files but for a few (changedFrom, index.go).
	anchors map[any]anchor
	// scratch holds the *worker of the last Update (its flat tree and
	// words' buffers), for the next one: a keystroke allocates no new
	// buffers for the file it re-reads.
	scratch sync.Pool
}

// baseOf returns the join in *slot (one of ix's lineage's) where ix's
// files are its files but for a few, with those changed files. Else it
// joins all of ix's files with joinAll, keeps that join in *slot, and
// returns it with no file changed.
func baseOf[J any](ix *Index, slot **J, filesOf func(*J) []*File, joinAll func() *J) (*J, []*File) {
	l := ix.lineage
	l.mu.Lock()
	base := *slot
	l.mu.Unlock()
	if base != nil {
		if changed, ok := ix.changedFrom(base, filesOf(base)); ok {
			return base, changed
		}
	}
	joined := joinAll()
	l.mu.Lock()
	*slot = joined
	l.anchorJoin(base, joined, ix.ID())
	l.mu.Unlock()
	return joined, nil
}

// pathSet returns the paths of files.
func pathSet(files []*File) map[string]bool {
	out := make(map[string]bool, len(files))
	for _, f := range files {
		out[f.Path] = true
	}
	return out
}

// nameJoin is the definitions of a set of files by name (the shared
// namespace: no project, no engine), each name's in path order. It is
// immutable once made.
type nameJoin struct {
	files  []*File // sorted by path
	byName map[string][]*Definition
	// was are the tables by each earlier name they list (was), each
	// name's in path order (nil where no table lists one).
	was map[string][]*Definition
	// special are the files that declare a project or an engine, by path.
	special []*File
}

func joinNames(files []*File) *nameJoin {
	n := 0
	for _, f := range files {
		n += len(f.Definitions)
	}
	j := &nameJoin{files: files, byName: make(map[string][]*Definition, n)}
	for _, f := range files {
		special := false
		for _, d := range f.Definitions {
			if d.Kind != KindProject && d.Kind != KindEngine {
				j.byName[d.Name] = append(j.byName[d.Name], d)
				if d.Table != nil {
					for _, w := range d.Table.Was {
						if j.was == nil {
							j.was = map[string][]*Definition{}
						}
						if ds := j.was[w.Name]; len(ds) == 0 || ds[len(ds)-1] != d {
							j.was[w.Name] = append(ds, d)
						}
					}
				}
			} else {
				special = true
			}
		}
		if special {
			j.special = append(j.special, f)
		}
	}
	return j
}

// nameIndex is the definitions of one snapshot by name: base, with the
// files of changed joined in overlay.
type nameIndex struct {
	base    *nameJoin
	changed map[string]bool
	overlay *nameJoin // nil where nothing changed
}

func newNameIndex(ix *Index) *nameIndex {
	base, changed := baseOf(ix, &ix.lineage.names, func(j *nameJoin) []*File { return j.files },
		func() *nameJoin { return joinNames(ix.sorted.all()) })
	ni := &nameIndex{base: base}
	if len(changed) > 0 {
		ni.changed, ni.overlay = pathSet(changed), joinNames(changed)
	}
	return ni
}

// named returns the definitions called name, in path order.
func (ni *nameIndex) named(name string) []*Definition {
	if ni.overlay == nil {
		return ni.base.byName[name]
	}
	return mergeByPath(ni.base.byName[name], ni.overlay.byName[name], ni.changed, (*Definition).path)
}

// wasNamed returns the tables that list name among their earlier names,
// in path order.
func (ni *nameIndex) wasNamed(name string) []*Definition {
	if ni.overlay == nil {
		return ni.base.was[name]
	}
	return mergeByPath(ni.base.was[name], ni.overlay.was[name], ni.changed, (*Definition).path)
}

// TablesWas returns the tables that list name among their earlier names
// (was), in path order: a name a rename may not give another table, which
// the migration could not tell apart. It costs the files changed since
// the lineage's join, not a pass over every definition.
func (ix *Index) TablesWas(name string) []*Definition { return ix.nameIx().wasNamed(name) }

// firstOfKind returns the first definition of kind k (KindProject or
// KindEngine) by path order, or nil.
func (ni *nameIndex) firstOfKind(k Kind) *Definition {
	var best *Definition
	consider := func(files []*File, skip map[string]bool) {
		for _, f := range files {
			if skip[f.Path] || best != nil && best.Path <= f.Path {
				continue
			}
			for _, d := range f.Definitions {
				if d.Kind == k {
					best = d
					break
				}
			}
		}
	}
	consider(ni.base.special, ni.changed)
	if ni.overlay != nil {
		consider(ni.overlay.special, nil)
	}
	return best
}

// names returns every name that some definition has.
func (ni *nameIndex) names() []string {
	out := make([]string, 0, len(ni.base.byName))
	for k := range ni.base.byName {
		if len(ni.named(k)) > 0 {
			out = append(out, k)
		}
	}
	if ni.overlay != nil {
		for k := range ni.overlay.byName {
			if _, ok := ni.base.byName[k]; !ok {
				out = append(out, k)
			}
		}
	}
	return out
}

// codeJoin is the lookup maps over a set of files. It is immutable once
// made, but for the maps made on first use, the places' (placed) and
// wordFiles: the check asks for calls, sends and where modules lead,
// never for places nor code sites, and the words are most of a join.
type codeJoin struct {
	files []*File // sorted by path
	// modules holds where each relative module of an import or export
	// leads, by the importing file's folder ("" where nowhere).
	modules map[moduleKey]string
	// placesOnce makes the four maps below (placed): only the places of
	// a name read them.
	placesOnce sync.Once
	// importers maps a file's path to the imports that resolve to it.
	importers map[string][]moduleLink
	// reexporters maps a file's path to the `export ... from` specifiers
	// that resolve to it.
	reexporters map[string][]moduleLink
	// declared maps a definition name to the declarative places of other
	// definitions that name it: ref, steps, users, was, removed.
	declared map[string][]Place
	// codeOnce reads the IdentRefs and words of the files built
	// without them (readCode).
	codeOnce sync.Once
	// wordFiles maps a word to the files whose code holds it, each by
	// its index in files (filesWith), made once (wordsDone); before, a
	// join with files not read yet answers a word from their texts
	// (lazyWords, filesOfWord). An index is no pointer: the collector
	// has none of them to follow (about 450,000 on 5,000 tables).
	wordsOnce sync.Once
	wordsDone atomic.Bool
	wordFiles map[string][]int32
	lazyWords lazyWords
	// testdata maps a table name to its test data files.
	testdata map[string][]*File
}

// moduleKey is a relative module as written in a file of folder dir.
type moduleKey struct{ dir, module string }

// moduleLink is one import (or export specifier) of file, by index.
type moduleLink struct {
	file  *File
	index int
}

// codeIndex is the lookups of one snapshot: base, with the files of
// changed (by path: the snapshot's files that differ from the base's)
// joined in overlay. It is immutable once made.
type codeIndex struct {
	ix      *Index
	base    *codeJoin
	changed map[string]bool
	overlay *codeJoin // nil where nothing changed
}

// newCodeIndex makes the lookups of ix from its lineage's base where ix's
// files are the base's but for a few, else from a new full join, which
// becomes the lineage's base.
func newCodeIndex(ix *Index) *codeIndex {
	base, changed := baseOf(ix, &ix.lineage.code, func(j *codeJoin) []*File { return j.files },
		func() *codeJoin { return join(ix.sorted.all(), ix.ResolveImport) })
	ci := &codeIndex{ix: ix, base: base}
	if len(changed) > 0 {
		ci.changed, ci.overlay = pathSet(changed), join(changed, ci.resolveNew)
	}
	return ci
}

// changedFiles returns the files of now that differ from base's, by
// pointer, and ok where now has the same paths as base and no more than
// maxOverlay changed. Module links resolve by the paths alone, so with
// the same paths every link of an unchanged file still leads where the
// base says.
func changedFiles(base, now []*File) (changed []*File, ok bool) {
	if len(base) != len(now) {
		return nil, false
	}
	for i, f := range now {
		if f == base[i] {
			continue
		}
		if f.Path != base[i].Path || len(changed) == maxOverlay {
			return nil, false
		}
		changed = append(changed, f)
	}
	return changed, true
}

// join makes the lookup maps of files (sorted by path), resolving
// relative imports with resolve. Only where each module leads is joined
// now: the rest (placed) only the places of a name read, which a check
// never asks for.
func join(files []*File, resolve func(from, module string) string) *codeJoin {
	j := &codeJoin{files: files, modules: map[moduleKey]string{}}
	// Module links are resolved once per distinct (folder, module) pair:
	// the files of one folder mostly import the same few modules.
	res := func(from, module string) {
		if !strings.HasPrefix(module, ".") {
			return
		}
		k := moduleKey{dirOf(from), module}
		if _, ok := j.modules[k]; !ok {
			j.modules[k] = resolve(from, module)
		}
	}
	for _, f := range files {
		for _, im := range f.Imports {
			res(f.Path, im.Module)
		}
		for _, ex := range f.Exports {
			if ex.Module != "" {
				res(f.Path, ex.Module)
			}
		}
	}
	return j
}

// placed returns j with the maps that the places of a name are read
// from (importers, reexporters, declared, testdata), made on first use:
// on 10,000 tables they are a tenth of a cold check's joins, which it
// never reads.
func (j *codeJoin) placed() *codeJoin {
	j.placesOnce.Do(func() {
		j.importers, j.reexporters = map[string][]moduleLink{}, map[string][]moduleLink{}
		j.declared, j.testdata = map[string][]Place{}, map[string][]*File{}
		// Every relative module of the files is in modules (join).
		to := func(from, module string) string {
			if !strings.HasPrefix(module, ".") {
				return ""
			}
			return j.modules[moduleKey{dirOf(from), module}]
		}
		for _, f := range j.files {
			for _, d := range f.Definitions {
				j.addDeclared(d)
			}
			for i, im := range f.Imports {
				if p := to(f.Path, im.Module); p != "" {
					j.importers[p] = append(j.importers[p], moduleLink{f, i})
				}
			}
			for i, ex := range f.Exports {
				if ex.Module == "" {
					continue
				}
				if p := to(f.Path, ex.Module); p != "" {
					j.reexporters[p] = append(j.reexporters[p], moduleLink{f, i})
				}
			}
			if f.TestData != nil {
				j.testdata[f.TestData.Table] = append(j.testdata[f.TestData.Table], f)
			}
		}
	})
	return j
}

// filesWith returns the files whose code holds word, by path, from the
// files of each word, made on first use.
func (j *codeJoin) filesWith(word string) []*File {
	j.wordsOnce.Do(func() {
		j.readCode()
		j.wordFiles = map[string][]int32{}
		for i, f := range j.files {
			f.eachWord(func(w string) {
				j.wordFiles[w] = append(j.wordFiles[w], int32(i))
			})
		}
		j.wordsDone.Store(true)
	})
	ids := j.wordFiles[word]
	if len(ids) == 0 {
		return nil
	}
	out := make([]*File, len(ids))
	for k, i := range ids {
		out[k] = j.files[i]
	}
	return out
}

func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// resolveNew resolves a module of a changed file: from the base's answers
// where they hold the same folder and module (the paths are the same),
// else as ResolveImport does.
func (ci *codeIndex) resolveNew(from, module string) string {
	if p, ok := ci.base.modules[moduleKey{dirOf(from), module}]; ok {
		return p
	}
	return ci.ix.ResolveImport(from, module)
}

// resolve returns the file a relative module of an import or export in
// file from leads to, or "".
func (ci *codeIndex) resolve(from, module string) string {
	if !strings.HasPrefix(module, ".") {
		return ""
	}
	k := moduleKey{dirOf(from), module}
	if p, ok := ci.base.modules[k]; ok {
		return p
	}
	if ci.overlay != nil {
		if p, ok := ci.overlay.modules[k]; ok {
			return p
		}
	}
	return ci.ix.ResolveImport(from, module)
}

// ResolveModule answers what ResolveImport does, from the snapshot's
// joined lookups: each relative module of the files' imports and exports
// is resolved there once per folder (the files of one folder mostly
// import the same few), so a caller that asks for every import of every
// file (the check's T2503) cleans and joins no path again. The lookups
// are made on first use, as Calls and Sends make them.
func (ix *Index) ResolveModule(from, module string) string { return ix.code().resolve(from, module) }

// file returns the snapshot's file at path p, or nil.
func (ci *codeIndex) file(p string) *File { return ci.ix.files.get(p) }

// def returns the first definition of the shared namespace called name,
// by path order, or nil.
func (ci *codeIndex) def(name string) *Definition { return ci.ix.Definition(name) }

// importers returns the imports that resolve to the file at path p, by
// the importing file's path.
func (ci *codeIndex) importers(p string) []moduleLink {
	if ci.overlay == nil {
		return ci.base.placed().importers[p]
	}
	return mergeByPath(ci.base.placed().importers[p], ci.overlay.placed().importers[p], ci.changed, moduleLink.path)
}

// reexporters returns the `export ... from` specifiers that resolve to
// the file at path p, by the exporting file's path.
func (ci *codeIndex) reexporters(p string) []moduleLink {
	if ci.overlay == nil {
		return ci.base.placed().reexporters[p]
	}
	return mergeByPath(ci.base.placed().reexporters[p], ci.overlay.placed().reexporters[p], ci.changed, moduleLink.path)
}

// declared returns the declarative places that name definition name, by
// path.
func (ci *codeIndex) declared(name string) []Place {
	if ci.overlay == nil {
		return ci.base.placed().declared[name]
	}
	return mergeByPath(ci.base.placed().declared[name], ci.overlay.placed().declared[name], ci.changed, Place.path)
}

// wordFiles returns the files whose code holds word, by path.
func (ci *codeIndex) wordFiles(word string) []*File {
	if ci.overlay == nil {
		return ci.base.filesOfWord(word)
	}
	return mergeByPath(ci.base.filesOfWord(word), ci.overlay.filesOfWord(word), ci.changed, (*File).path)
}

// testdata returns the first test data file of table name, by path, or
// nil.
func (ci *codeIndex) testdata(name string) *File {
	fs := ci.base.placed().testdata[name]
	if ci.overlay != nil {
		fs = mergeByPath(fs, ci.overlay.placed().testdata[name], ci.changed, (*File).path)
	}
	if len(fs) == 0 {
		return nil
	}
	return fs[0]
}

func (l moduleLink) path() string  { return l.file.Path }
func (p Place) path() string       { return p.Path }
func (f *File) path() string       { return f.Path }
func (d *Definition) path() string { return d.Path }

// mergeByPath returns base's entries of the paths not in changed and
// over's entries, ordered by path (stably: the entries of one path keep
// their order). Both lists are ordered by path. base itself is returned
// where it has no stale entry and over is empty.
func mergeByPath[T any](base, over []T, changed map[string]bool, path func(T) string) []T {
	stale := false
	for _, e := range base {
		if changed[path(e)] {
			stale = true
			break
		}
	}
	if !stale && len(over) == 0 {
		return base
	}
	out := make([]T, 0, len(base)+len(over))
	for _, e := range base {
		if !changed[path(e)] {
			out = append(out, e)
		}
	}
	if len(over) == 0 {
		return out
	}
	out = append(out, over...)
	sort.SliceStable(out, func(i, j int) bool { return path(out[i]) < path(out[j]) })
	return out
}
