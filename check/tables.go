package check

import (
	"slices"
	"sort"
	"sync"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/spelling"
)

// tables are the check's project-wide lookups: every definition of the
// shared namespace by name, the sorted names of the tables, functions and
// flows, each table's test data files, the definitions the joined rules
// read, the project and engine files, and the files with the index's own
// findings. A one-shot Run makes them once (newTables); a Checker keeps
// them from run to run and brings them up to date from the files that
// changed (update), so that a change costs the files it touches, not a
// pass over the project. They are read, never written, while rules run.
type tables struct {
	// byName is the definitions of each name (not project or engine), by
	// path, then offset: the first one is the one the rules see.
	byName map[string]defList
	// later maps each definition that is not the first of its name to
	// the first: most projects have none, so that whether a definition is
	// the first is told without a lookup by its name (firstFor).
	later map[*definitions.Definition]*definitions.Definition
	// sorted holds the names whose first definition is a table, fn or
	// flow (by namesSlot), sorted; gen counts the changes of each list and
	// wasGen those of the tables' was names (depNames, depTableWas).
	sorted [3][]string
	gen    [3]uint64
	wasGen uint64
	// letters holds the letters of each name of sorted, in its order
	// (spelling.Letters), for suggest.
	letters [3][]uint64
	// testData maps a table to its test data files, by path; rowIDs
	// holds the ids of their rows, made on first use (rowSet) and dropped
	// when a test data file of the table changes.
	testData map[string][]*definitions.File
	rowsMu   sync.Mutex
	rowIDs   map[string]map[string]bool
	// joinDefs are, by path, the definitions the rules that join files
	// read (joinable); joinPaths their paths, sorted; joinList all of
	// them in that order, made on first use (nil: to be made); joinGen
	// counts the changes of their tables (0) and screens (1); wasRefs
	// counts the tables' was names among them; routes holds the route
	// shape of each screen's path, made on first use (route).
	joinDefs  map[string][]*definitions.Definition
	joinPaths []string
	joinList  []*definitions.Definition
	joinGen   [2]uint64
	wasRefs   map[string]int
	routes    map[*definitions.Definition]string
	// projects and engines are the files that declare a project or an
	// engine, found the files with index findings, each by path.
	projects, engines, found []*definitions.File
}

// defList is the definitions of one name, by path, then offset: most
// names have one, kept without a slice.
type defList struct {
	first *definitions.Definition
	rest  []*definitions.Definition
}

// all returns the definitions of the list, by path.
func (l defList) all() []*definitions.Definition {
	if l.first == nil {
		return nil
	}
	return append([]*definitions.Definition{l.first}, l.rest...)
}

// namesSlot is where the sorted names of kind k are kept, or -1 for a kind
// without a list.
func namesSlot(k definitions.Kind) int {
	switch k {
	case definitions.KindTable:
		return 0
	case definitions.KindFn:
		return 1
	case definitions.KindFlow:
		return 2
	}
	return -1
}

// shares reports whether d is in the shared namespace (not the project or
// engine).
func shares(d *definitions.Definition) bool {
	return d.Kind != definitions.KindProject && d.Kind != definitions.KindEngine
}

// joinable reports whether a rule that joins files reads d: a table with
// was names (T2007) or a screen with a path (T2008). The others give those
// rules nothing.
func joinable(d *definitions.Definition) bool {
	switch {
	case d.Table != nil:
		return len(d.Table.Was) > 0
	case d.Screen != nil:
		return d.Screen.Path != ""
	}
	return false
}

// newTables makes the tables of files, sorted by path.
func newTables(files []*definitions.File) *tables {
	defs := 0
	for _, f := range files {
		defs += len(f.Definitions)
	}
	t := &tables{byName: make(map[string]defList, defs), later: map[*definitions.Definition]*definitions.Definition{}, testData: map[string][]*definitions.File{},
		rowIDs: map[string]map[string]bool{}, joinDefs: map[string][]*definitions.Definition{}, wasRefs: map[string]int{},
		routes: map[*definitions.Definition]string{}}
	for _, f := range files {
		var project, engine bool
		var join []*definitions.Definition
		for _, d := range f.Definitions {
			switch {
			case d.Kind == definitions.KindProject:
				project = true
				continue
			case d.Kind == definitions.KindEngine:
				engine = true
				continue
			}
			l, seen := t.byName[d.Name]
			if !seen {
				t.byName[d.Name] = defList{first: d}
				if k := namesSlot(d.Kind); k >= 0 {
					t.sorted[k] = append(t.sorted[k], d.Name)
				}
			} else {
				l.rest = append(l.rest, d)
				t.byName[d.Name] = l
				t.later[d] = l.first
			}
			if joinable(d) {
				join = append(join, d)
			}
		}
		if join != nil {
			t.joinDefs[f.Path] = join
			t.joinPaths = append(t.joinPaths, f.Path)
			t.countWas(join, 1)
		}
		if project {
			t.projects = append(t.projects, f)
		}
		if engine {
			t.engines = append(t.engines, f)
		}
		if len(f.Findings) > 0 {
			t.found = append(t.found, f)
		}
		if f.TestData != nil {
			t.testData[f.TestData.Table] = append(t.testData[f.TestData.Table], f)
		}
	}
	for k := range t.sorted {
		sort.Strings(t.sorted[k])
		t.letters[k] = make([]uint64, len(t.sorted[k]))
		for i, name := range t.sorted[k] {
			t.letters[k][i] = spelling.Letters(name)
		}
	}
	return t
}

// firstOf returns the first definition named name (by path order), or nil.
func (t *tables) firstOf(name string) *definitions.Definition {
	return t.byName[name].first
}

// firstFor returns the first definition of d's name (by path order): d
// itself where it is the first. d is one of the tables' definitions.
func (t *tables) firstFor(d *definitions.Definition) *definitions.Definition {
	if len(t.later) > 0 {
		if first, ok := t.later[d]; ok {
			return first
		}
	}
	return d
}

// names returns the sorted names of the tables, fns or flows.
func (t *tables) names(kind definitions.Kind) []string {
	if k := namesSlot(kind); k >= 0 {
		return t.sorted[k]
	}
	return nil
}

// nameList returns the sorted names of the tables, fns or flows with
// their letters, for suggest.
func (t *tables) nameList(kind definitions.Kind) nameList {
	if k := namesSlot(kind); k >= 0 {
		return nameList{names: t.sorted[k], letters: t.letters[k]}
	}
	return nameList{}
}

// addName puts name into the sorted names of slot k, where it is not yet.
func (t *tables) addName(k int, name string) {
	if i, found := slices.BinarySearch(t.sorted[k], name); !found {
		t.sorted[k] = slices.Insert(t.sorted[k], i, name)
		t.letters[k] = slices.Insert(t.letters[k], i, spelling.Letters(name))
	}
}

// dropName takes name out of the sorted names of slot k.
func (t *tables) dropName(k int, name string) {
	if i, found := slices.BinarySearch(t.sorted[k], name); found {
		t.sorted[k] = slices.Delete(t.sorted[k], i, i+1)
		t.letters[k] = slices.Delete(t.letters[k], i, i+1)
	}
}

// projectDef returns the first project definition by path order, as
// definitions.Index.Project does, or nil.
func (t *tables) projectDef() *definitions.Definition {
	return firstOfKind(t.projects, definitions.KindProject)
}

// engineDef returns the first engine definition by path order, as
// definitions.Index.Engine does, or nil.
func (t *tables) engineDef() *definitions.Definition {
	return firstOfKind(t.engines, definitions.KindEngine)
}

func firstOfKind(files []*definitions.File, k definitions.Kind) *definitions.Definition {
	for _, f := range files {
		for _, d := range f.Definitions {
			if d.Kind == k {
				return d
			}
		}
	}
	return nil
}

// joined returns the definitions the rules that join files read, by path,
// then offset. The list is shared: it must not be changed.
func (t *tables) joined() []*definitions.Definition {
	if t.joinList == nil {
		t.joinList = []*definitions.Definition{}
		for _, p := range t.joinPaths {
			t.joinList = append(t.joinList, t.joinDefs[p]...)
		}
	}
	return t.joinList
}

// joinGenOr is t's joinGen, 0s for no tables yet.
func (t *tables) joinGenOr() [2]uint64 {
	if t == nil {
		return [2]uint64{}
	}
	return t.joinGen
}

// route returns routeShape of screen d's path, made once per definition.
// Only the rules that join files ask, one after the other.
func (t *tables) route(d *definitions.Definition) string {
	r, ok := t.routes[d]
	if !ok {
		r = routeShape(d.Screen.Path)
		t.routes[d] = r
	}
	return r
}

// countWas adds n to the counts of the tables' was names of defs.
func (t *tables) countWas(defs []*definitions.Definition, n int) {
	for _, d := range defs {
		if d.Table == nil {
			continue
		}
		for _, w := range d.Table.Was {
			if t.wasRefs[w.Name] += n; t.wasRefs[w.Name] == 0 {
				delete(t.wasRefs, w.Name)
			}
		}
	}
}

// rowSet returns the ids of the test data rows of table, made on first use.
func (t *tables) rowSet(table string) map[string]bool {
	t.rowsMu.Lock()
	defer t.rowsMu.Unlock()
	if ids, ok := t.rowIDs[table]; ok {
		return ids
	}
	n := 0
	for _, f := range t.testData[table] {
		n += len(f.TestData.Rows)
	}
	ids := make(map[string]bool, n)
	for _, f := range t.testData[table] {
		for _, r := range f.TestData.Rows {
			if r.ID != "" {
				ids[r.ID] = true
			}
		}
	}
	t.rowIDs[table] = ids
	return ids
}

// update brings the tables from the file old to the file new at the same
// path (either nil where the file came or went); gen and wasGen count
// what changed.
func (t *tables) update(old, new *definitions.File) {
	p := pathOf(old, new)
	var touched []string
	for _, f := range []*definitions.File{old, new} {
		if f == nil {
			continue
		}
		for _, d := range f.Definitions {
			if shares(d) && !slices.Contains(touched, d.Name) {
				touched = append(touched, d.Name)
			}
		}
	}
	for _, name := range touched {
		before := t.byName[name].first
		t.replaceDefs(name, p, new)
		after := t.byName[name].first
		if bk, ak := kindOf(before), kindOf(after); bk != ak {
			if k := namesSlot(bk); k >= 0 {
				t.dropName(k, name)
				t.gen[k]++
			}
			if k := namesSlot(ak); k >= 0 {
				t.addName(k, name)
				t.gen[k]++
			}
		}
		if !sameWas(before, after) {
			t.wasGen++
		}
	}

	var join []*definitions.Definition
	if new != nil {
		for _, d := range new.Definitions {
			if shares(d) && joinable(d) {
				join = append(join, d)
			}
		}
	}
	if was := t.joinDefs[p]; was != nil || join != nil {
		t.countWas(was, -1)
		t.countWas(join, 1)
		t.joinPaths = deleteSorted(t.joinPaths, p)
		delete(t.joinDefs, p)
		if join != nil {
			t.joinDefs[p] = join
			t.joinPaths = insertSorted(t.joinPaths, p)
		}
		for _, d := range append(slices.Clip(was), join...) {
			if d.Table != nil {
				t.joinGen[0]++
			} else {
				t.joinGen[1]++
				delete(t.routes, d)
			}
		}
		t.joinList = nil
	}
	t.projects = replaceFile(t.projects, p, new, func(f *definitions.File) bool { return declares(f, definitions.KindProject) })
	t.engines = replaceFile(t.engines, p, new, func(f *definitions.File) bool { return declares(f, definitions.KindEngine) })
	t.found = replaceFile(t.found, p, new, func(f *definitions.File) bool { return len(f.Findings) > 0 })
	for _, f := range []*definitions.File{old, new} {
		if f != nil && f.TestData != nil {
			table := f.TestData.Table
			if l := replaceFile(t.testData[table], p, new, func(f *definitions.File) bool { return f.TestData != nil && f.TestData.Table == table }); l != nil {
				t.testData[table] = l
			} else {
				delete(t.testData, table)
			}
			delete(t.rowIDs, table)
		}
	}
}

// replaceDefs puts the definitions named name of new (nil: none) in place
// of those of the file at path p in name's list.
func (t *tables) replaceDefs(name, p string, new *definitions.File) {
	old := t.byName[name]
	var kept []*definitions.Definition
	if old.first != nil {
		for _, d := range append([]*definitions.Definition{old.first}, old.rest...) {
			if d.Path != p {
				kept = append(kept, d)
			}
		}
	}
	var add []*definitions.Definition
	if new != nil {
		for _, d := range new.Definitions {
			if d.Name == name && shares(d) {
				add = append(add, d)
			}
		}
	}
	at := sort.Search(len(kept), func(i int) bool { return kept[i].Path > p })
	all := slices.Insert(kept, at, add...)
	for _, d := range old.rest {
		delete(t.later, d)
	}
	for _, d := range all[min(1, len(all)):] {
		t.later[d] = all[0]
	}
	switch len(all) {
	case 0:
		delete(t.byName, name)
	case 1:
		t.byName[name] = defList{first: all[0]}
	default:
		t.byName[name] = defList{first: all[0], rest: all[1:]}
	}
}

// kindOf is d's kind, "" for nil.
func kindOf(d *definitions.Definition) definitions.Kind {
	if d == nil {
		return ""
	}
	return d.Kind
}

// sameWas reports whether a and b (either nil) give the tables' was names
// the same: neither a table, or both tables with the same was names.
func sameWas(a, b *definitions.Definition) bool {
	at, bt := a != nil && a.Kind == definitions.KindTable, b != nil && b.Kind == definitions.KindTable
	if !at || !bt {
		return at == bt
	}
	if a.Table == nil || b.Table == nil {
		return a.Table == b.Table
	}
	return slices.EqualFunc(a.Table.Was, b.Table.Was, func(x, y definitions.NameRef) bool { return x.Name == y.Name })
}

// declares reports whether f declares a definition of kind k.
func declares(f *definitions.File, k definitions.Kind) bool {
	for _, d := range f.Definitions {
		if d.Kind == k {
			return true
		}
	}
	return false
}

// pathOf is the path of old or new, whichever is there.
func pathOf(old, new *definitions.File) string {
	if new != nil {
		return new.Path
	}
	return old.Path
}

// replaceFile takes the file at path p out of files (sorted by path), and
// puts new in its place where keep(new).
func replaceFile(files []*definitions.File, p string, new *definitions.File, keep func(*definitions.File) bool) []*definitions.File {
	i := sort.Search(len(files), func(i int) bool { return files[i].Path >= p })
	there := i < len(files) && files[i].Path == p
	switch in := new != nil && keep(new); {
	case there && in:
		files[i] = new
	case there:
		files = slices.Delete(files, i, i+1)
	case in:
		files = slices.Insert(files, i, new)
	}
	if len(files) == 0 {
		return nil
	}
	return files
}

// insertSorted adds s to the sorted list xs, where it is not yet.
func insertSorted(xs []string, s string) []string {
	i, found := slices.BinarySearch(xs, s)
	if found {
		return xs
	}
	return slices.Insert(xs, i, s)
}

// deleteSorted takes s out of the sorted list xs.
func deleteSorted(xs []string, s string) []string {
	if i, found := slices.BinarySearch(xs, s); found {
		return slices.Delete(xs, i, i+1)
	}
	return xs
}
