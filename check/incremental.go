package check

import (
	"context"
	"hash/maphash"
	"maps"
	"slices"
	"sort"
	"sync"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/parallel"
)

// Checker checks one project again and again, as its index changes, and
// gives each time exactly the findings of a full Run. It keeps the
// project-wide tables the rules look up (tables.go), brought up to date
// from the files that changed, and the findings of the file-by-file rules
// per file, with what they looked up in the rest of the project (deps.go),
// filed by the name looked up (depindex.go). A new snapshot makes the
// findings again only for the files that changed and the files whose
// lookups the change alters (a file that uses a table whose text changed,
// an import whose file came or went), found through that index, not by
// walking every file. The rules that join files run again in full over the
// few definitions they read. It is safe for concurrent use; runs take
// turns.
type Checker struct {
	mu sync.Mutex
	// files is the snapshot last checked, by path (owned: the Checker's
	// own list, which it patches, not the index's); units their findings,
	// nil for a file whose findings a stopped run did not make; tabs its
	// tables; uses the units' lookups by key; digests the digests of its
	// definitions (deps.go).
	files   []*definitions.File
	owned   bool
	units   []*unit
	tabs    *tables
	uses    depIndex
	digests map[*definitions.Definition]string
	// joined holds the findings of the rules that join files that
	// depend only on the definitions they read (joinable): T2007 and
	// T2008, by code, until a change reaches those (dropJoined).
	joined map[string][]diag.Finding
	// at is the snapshot last checked, by its id (definitions.SnapshotID,
	// which keeps no snapshot): the next one's changes are read from the
	// index's log where it can tell them. found are the places in units
	// of the units with findings, in order, and whole says units holds a
	// unit for every file (no stopped run left one to make).
	at    definitions.SnapshotID
	found []int
	whole bool
	// remade counts the files whose findings the last Run made anew.
	remade int
	// once says the Checker runs once (the package's Run): it records no
	// lookups and keeps nothing.
	once bool
}

// unit is one file's findings of the file-by-file rules, with what they
// looked up elsewhere.
type unit struct {
	file *definitions.File
	// found is by the rule's place in registry(); nil where no rule
	// found anything (most files: a list per rule of every file was
	// 17 MB of the live heap at 5,000 tables).
	found [][]diag.Finding
	deps  []seen
	// pos is where each of deps stands in its key's list of the
	// depIndex, -1 for one not filed.
	pos []int32
	// stale says a change alters what the unit saw: it is made again.
	stale bool
}

// anyFound reports whether a rule found anything in the unit (nil: a
// unit not made).
func (u *unit) anyFound() bool { return u != nil && u.found != nil }

// foundBy is what the rule at r (its place in registry()) found in the
// unit.
func (u *unit) foundBy(r int) []diag.Finding {
	if u.found == nil {
		return nil
	}
	return u.found[r]
}

// seen is one lookup of a unit, with what it saw.
type seen struct {
	dep dep
	val string
}

// NewChecker returns a Checker that has checked nothing yet.
func NewChecker() *Checker {
	return &Checker{digests: map[*definitions.Definition]string{}, uses: depIndex{}, joined: map[string][]diag.Finding{}}
}

// Run checks the project ix holds, as the package's Run does, making again
// only what changed since the snapshot this Checker checked last. A run
// stopped by ctx answers the findings so far; it keeps what it finished,
// and the next run makes the rest.
func (c *Checker) Run(ctx context.Context, ix *definitions.Index, opts Options) []diag.Finding {
	c.mu.Lock()
	defer c.mu.Unlock()
	// The files by path: where the index's log tells the change, the
	// last run's list with the changed files put in their places (a
	// change costs the files it reaches, not a copy of the project's
	// list; nor does anything below walk every file, but where files came
	// or went).
	joinGen := c.tabs.joinGenOr()
	ch, files, units, todo := c.changeTo(ix)
	c.dropJoined(ch, joinGen)
	s := &shared{ix: ix, tables: c.tabs}
	s.values = &values{s: s, memo: map[dep]string{}, digests: c.digests}
	rules := registry()

	if !ch.all {
		todo = c.stale(ch, s.values, files, units, todo)
	}
	slices.Sort(todo)
	c.remake(ctx, s, rules, files, units, todo)

	// The findings in a full Run's order: rule by rule, file by file.
	foundAt := c.foundAfter(ch, units, todo)
	found := make([]*unit, len(foundAt))
	for k, i := range foundAt {
		found[k] = units[i]
	}
	// Sized for all but the joined rules' findings (most often none): a
	// project with many findings grows no list on every keystroke.
	n := len(opts.Extra)
	for _, f := range c.tabs.found {
		n += len(f.Findings)
	}
	for _, u := range found {
		for _, fs := range u.found {
			n += len(fs)
		}
	}
	out := make([]diag.Finding, 0, n)
	for _, f := range c.tabs.found {
		out = append(out, f.Findings...)
	}
	for r, rule := range rules {
		for _, u := range found {
			out = append(out, u.foundBy(r)...)
		}
		if rule.joined != nil && ctx.Err() == nil {
			out = append(out, c.runJoined(ctx, rule, s)...)
		}
	}
	out = append(out, opts.Extra...)
	diag.Sort(out)
	if c.once {
		return out
	}

	for _, old := range ch.gone {
		for _, d := range old.Definitions {
			delete(c.digests, d)
		}
	}
	remade := 0
	for _, i := range todo {
		if u := units[i]; u != nil {
			c.uses.add(u)
			remade++
		}
	}
	c.files, c.owned, c.units, c.remade = files, ch.owned, units, remade
	c.at, c.found, c.whole = ix.ID(), foundAt, remade == len(todo)
	return out
}

// foundAfter answers the places in units of the units with findings, in
// order. Where units is the last run's list with the units at todo made
// again (ch.aligned), that is the last run's places less todo's, with
// those of todo's that found something; else every unit is looked at.
func (c *Checker) foundAfter(ch *change, units []*unit, todo []int) []int {
	var out []int
	if !ch.aligned {
		for i, u := range units {
			if u.anyFound() {
				out = append(out, i)
			}
		}
		return out
	}
	out = make([]int, 0, len(c.found)+len(todo))
	k := 0
	for _, i := range c.found {
		for ; k < len(todo) && todo[k] < i; k++ {
			if units[todo[k]].anyFound() {
				out = append(out, todo[k])
			}
		}
		if k < len(todo) && todo[k] == i {
			continue // made again: the loop above or below takes it
		}
		out = append(out, i)
	}
	for ; k < len(todo); k++ {
		if units[todo[k]].anyFound() {
			out = append(out, todo[k])
		}
	}
	return out
}

// cachedJoins are the codes of the rules that join files whose findings
// a Checker keeps (joined).
var cachedJoins = []string{diag.T2007, diag.T2008}

// dropJoined drops the kept findings of the rules that join files that ch
// may alter: T2007's where the tables with was names changed (the tables'
// joinGen moved from gen) or a changed file declares or declared a name a
// table's was names (the kind of the definition of that name is in its
// messages); T2008's where the screens with paths changed.
func (c *Checker) dropJoined(ch *change, gen [2]uint64) {
	if ch.all {
		clear(c.joined)
		return
	}
	if c.tabs.joinGen[1] != gen[1] {
		delete(c.joined, diag.T2008)
	}
	if c.tabs.joinGen[0] != gen[0] {
		delete(c.joined, diag.T2007)
		return
	}
	for name := range ch.names {
		if c.tabs.wasRefs[name] > 0 {
			delete(c.joined, diag.T2007)
			return
		}
	}
}

// runJoined runs a rule that joins files, or answers its kept findings.
func (c *Checker) runJoined(ctx context.Context, rule Rule, s *shared) []diag.Finding {
	if found, ok := c.joined[rule.Code]; ok {
		return found
	}
	found := rule.joined(s.joined())
	if !c.once && ctx.Err() == nil && slices.Contains(cachedJoins, rule.Code) {
		c.joined[rule.Code] = found
	}
	return found
}

// stale finds, through the index of lookups, the units whose lookups ch
// alters: each lookup filed under a key the change touches is worked out
// again and compared. Those units are taken out of units (and of the
// index), to be made again: their places are added to todo.
func (c *Checker) stale(ch *change, v *values, files []*definitions.File, units []*unit, todo []int) []int {
	var hit []*unit
	for _, k := range ch.keys() {
		for _, r := range c.uses[k] {
			if r.u.stale {
				continue
			}
			if sn := r.u.deps[r.i]; v.of(sn.dep) != sn.val {
				r.u.stale = true
				hit = append(hit, r.u)
			}
		}
	}
	for _, u := range hit {
		c.uses.remove(u)
		i := sort.Search(len(files), func(i int) bool { return files[i].Path >= u.file.Path })
		units[i] = nil
		todo = append(todo, i)
	}
	return todo
}

// remake makes the findings of the files at the indexes todo, in parallel
// (a goroutine for 64 files at least, as many as the cores at most).
func (c *Checker) remake(ctx context.Context, s *shared, rules []Rule, files []*definitions.File, units []*unit, todo []int) {
	parallel.For(len(todo), 64, func(k int) {
		if ctx.Err() != nil {
			return
		}
		i := todo[k]
		p := s.fileUnit(files[i], !c.once)
		u := &unit{file: files[i]}
		for r, rule := range rules {
			if rule.run == nil {
				continue
			}
			if fs := rule.run(p); len(fs) > 0 {
				if u.found == nil {
					u.found = make([][]diag.Finding, len(rules))
				}
				u.found[r] = fs
			}
		}
		u.deps = make([]seen, 0, len(p.deps))
		for d, val := range p.deps {
			u.deps = append(u.deps, seen{d, val})
		}
		units[i] = u
	})
}

// change is what differs between the snapshot a Checker checked last and
// a new one, as far as the lookups of unchanged files can tell.
type change struct {
	all bool // nothing was checked before: everything is new
	// aligned says the files are the last snapshot's paths, in the same
	// places (no file came or went): units is the last run's list.
	aligned bool
	// names are the names that changed files declare or declared.
	names map[string]bool
	// tables are the tables whose test data files changed.
	tables map[string]bool
	// paths are the paths of the files that came or went (imports may
	// resolve otherwise).
	paths []string
	// project says project.ts changed, or a file that declares or
	// declared a project.
	project bool
	// code says a changed file's calls, sends, imports or exports differ
	// (the inferred sends of any function may differ).
	code bool
	// rows says a changed file's row shape differs
	// (definitions.SameRowShape): other files' row sites may differ.
	rows bool
	// sorted says which sorted lists of names changed (by namesSlot),
	// was that the tables' was names did.
	sorted [3]bool
	was    bool
	// gone are the old versions of the files that changed or went.
	gone []*definitions.File
	// owned says the files are the Checker's own list (the last run's,
	// patched from the index's log), not the index's.
	owned bool
}

// keys are the keys of the depIndex under which the lookups the change
// may alter are filed.
func (ch *change) keys() []dep {
	var keys []dep
	for name := range ch.names {
		keys = append(keys, dep{depDef, name})
	}
	for k, changed := range ch.sorted {
		if changed {
			keys = append(keys, dep{depNames, string([]definitions.Kind{definitions.KindTable, definitions.KindFn, definitions.KindFlow}[k])})
		}
	}
	if ch.was {
		keys = append(keys, dep{depTableWas, ""})
	}
	for t := range ch.tables {
		keys = append(keys, dep{depRows, t})
	}
	for _, p := range ch.paths {
		keys = append(keys, resolveKeys(p)...)
	}
	if ch.project {
		keys = append(keys, dep{depProject, ""})
	}
	if ch.code || len(ch.paths) > 0 {
		// The same names and kinds, calls, sends, imports and exports in
		// every changed file, and the same paths: the search that infers
		// them walks the same way.
		keys = append(keys, dep{depSends, ""})
	}
	if ch.rows || len(ch.paths) > 0 {
		// A changed file's calls, returns, escapes, imports or exports
		// can make a helper's parameter in another file a row, or not;
		// its own uses alter only its own sites.
		keys = append(keys, dep{depRowSites, ""})
	}
	return keys
}

// touch notes a file that changed from old to new (either nil where the
// file came or went).
func (ch *change) touch(old, new *definitions.File) {
	for _, f := range []*definitions.File{old, new} {
		if f == nil {
			continue
		}
		for _, d := range f.Definitions {
			ch.names[d.Name] = true
			if d.Kind == definitions.KindProject {
				ch.project = true
			}
		}
		if f.TestData != nil {
			ch.tables[f.TestData.Table] = true
		}
		if f.Path == "project.ts" {
			ch.project = true
		}
	}
	if old == nil || new == nil {
		ch.paths = append(ch.paths, pathOf(old, new))
	}
	if old == nil || new == nil || codeShape(old) != codeShape(new) {
		ch.code = true
	}
	if old == nil || new == nil || !definitions.SameRowShape(old, new) {
		ch.rows = true
	}
}

// remakeAll is the share of the files past which a change is checked as
// a new project: the tables made anew, every file's findings made again.
const remakeAll = 4

// changeTo works out what changed from the last snapshot to ix, brings
// the tables up to date, and answers ix's files by path, with the units
// of the files that did not change lined up with them (nil for the
// others, whose places todo lists).
func (c *Checker) changeTo(ix *definitions.Index) (*change, []*definitions.File, []*unit, []int) {
	ch := &change{names: map[string]bool{}, tables: map[string]bool{}}
	var pairs [][2]*definitions.File
	var files []*definitions.File
	var units []*unit
	var todo []int
	if c.tabs != nil && !c.once {
		if pairs, todo, ch.aligned = c.logged(ix); ch.aligned {
			files, units, ch.owned = c.files, c.units, c.owned
		} else {
			// The snapshot's own list, not a copy.
			files = ix.SortedFiles()
			pairs, units, ch.aligned = c.pairs(files)
			todo = nil
			for i, u := range units {
				if u == nil {
					todo = append(todo, i)
				}
			}
		}
	}
	if files == nil {
		files = ix.SortedFiles()
	}
	if units == nil || len(pairs) > len(files)/remakeAll {
		ch.all, ch.aligned = true, false
		ch.gone = c.files
		c.tabs, c.uses = newTables(files), depIndex{}
		todo = make([]int, len(files))
		for i := range todo {
			todo[i] = i
		}
		return ch, files, make([]*unit, len(files)), todo
	}
	gen, was := c.tabs.gen, c.tabs.wasGen
	for _, pr := range pairs {
		ch.touch(pr[0], pr[1])
		if pr[0] != nil {
			ch.gone = append(ch.gone, pr[0])
		}
		c.tabs.update(pr[0], pr[1])
	}
	for k := range gen {
		ch.sorted[k] = gen[k] != c.tabs.gen[k]
	}
	ch.was = was != c.tabs.wasGen
	return ch, files, units, todo
}

// logged answers, from the index's log of changes (ChangedSince), the
// files that changed since the last snapshot checked and their places,
// where no file came or went and the last run made every unit: the
// changed files are put in their places in c.files (the Checker's own
// list from then on: copied once from the index's), and their units
// taken out of units and of the index. Else ok is false, and nothing is
// changed (pairs compares the files).
func (c *Checker) logged(ix *definitions.Index) (pairs [][2]*definitions.File, at []int, ok bool) {
	if !c.whole || c.files == nil {
		return nil, nil, false
	}
	paths, ok := ix.ChangedSince(c.at)
	if !ok || len(paths) > len(c.files)/remakeAll {
		return nil, nil, false
	}
	for _, p := range paths {
		i := sort.Search(len(c.files), func(i int) bool { return c.files[i].Path >= p })
		was := i < len(c.files) && c.files[i].Path == p
		now := ix.File(p)
		switch {
		case !was && now == nil:
			continue // came and went again
		case !was || now == nil:
			return nil, nil, false // came or went
		case now != c.files[i]:
			pairs = append(pairs, [2]*definitions.File{c.files[i], now})
			at = append(at, i)
		}
	}
	if !c.owned && len(at) > 0 {
		c.files, c.owned = slices.Clone(c.files), true
	}
	for k, i := range at {
		c.files[i] = pairs[k][1]
		if c.units[i] != nil {
			c.uses.remove(c.units[i])
			c.units[i] = nil
		}
	}
	return pairs, at, true
}

// pairs walks the last snapshot's files and files side by side (both by
// path), and answers the files that changed, came or went (old, new; nil
// where there is none), and files' units where they did not change, nil
// for the others, whose old units it takes out of the index; aligned
// says no file came or went (the units are the last run's list).
func (c *Checker) pairs(files []*definitions.File) ([][2]*definitions.File, []*unit, bool) {
	var pairs [][2]*definitions.File
	old := c.files
	if len(old) == len(files) {
		// Mostly the same paths, some files changed: no path compared
		// but those of the changed files.
		aligned := true
		var at []int
		for i := range files {
			if files[i] != old[i] {
				if files[i].Path != old[i].Path {
					aligned = false
					break
				}
				pairs = append(pairs, [2]*definitions.File{old[i], files[i]})
				at = append(at, i)
			}
		}
		if aligned {
			units := c.units
			for _, i := range at {
				if units[i] != nil {
					c.uses.remove(units[i])
					units[i] = nil
				}
			}
			return pairs, units, true
		}
		pairs = pairs[:0]
	}
	units := make([]*unit, 0, len(files))
	drop := func(u *unit) {
		if u != nil {
			c.uses.remove(u)
		}
	}
	i, j := 0, 0
	for i < len(files) || j < len(old) {
		switch {
		case i < len(files) && j < len(old) && files[i] == old[j]:
			units = append(units, c.units[j])
			i++
			j++
		case j == len(old) || i < len(files) && files[i].Path < old[j].Path:
			pairs = append(pairs, [2]*definitions.File{nil, files[i]})
			units = append(units, nil)
			i++
		case i == len(files) || old[j].Path < files[i].Path:
			pairs = append(pairs, [2]*definitions.File{old[j], nil})
			drop(c.units[j])
			j++
		default:
			pairs = append(pairs, [2]*definitions.File{old[j], files[i]})
			drop(c.units[j])
			units = append(units, nil)
			i++
			j++
		}
	}
	return pairs, units, false
}

// codeShape hashes what the index infers sends and calls from in one file:
// its definitions' names, kinds, declared sends and steps, its uses of
// ctx.call, ctx.mail and ctx.http, the helpers its code calls, its imports
// and exports; not where they stand.
func codeShape(f *definitions.File) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	w := func(parts ...string) {
		for _, s := range parts {
			h.WriteString(s)
			h.WriteByte(0)
		}
		h.WriteByte(1)
	}
	for _, d := range f.Definitions {
		w("def", d.Name, string(d.Kind))
		if d.Fn != nil {
			for _, s := range d.Fn.Sends {
				w("sends", s.Name)
			}
		}
		if d.Flow != nil {
			for _, s := range d.Flow.Steps {
				w("step", s.Name)
			}
		}
	}
	for _, u := range f.Uses.Sends {
		w("send", u.Def, u.Kind)
	}
	for _, u := range f.Uses.Calls {
		w("call", u.Def, u.Name.Name)
	}
	for _, k := range slices.Sorted(maps.Keys(f.Uses.LibCalls)) {
		w(append([]string{"lib", k}, f.Uses.LibCalls[k]...)...)
	}
	for _, k := range slices.Sorted(maps.Keys(f.Uses.SendsOf)) {
		w(append([]string{"sendsOf", k}, f.Uses.SendsOf[k]...)...)
	}
	for _, im := range f.Imports {
		w("import", im.Module, im.Imported, im.Local)
	}
	for _, ex := range f.Exports {
		w("export", ex.Local, ex.Exported, ex.Module)
	}
	return h.Sum64()
}
