package check

import (
	"context"
	"hash/maphash"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// Checker checks one project again and again, as its index changes, and
// gives each time exactly the findings of a full Run. It keeps the
// findings of the file-by-file rules per file, with what they looked up in
// the rest of the project (deps.go); a new snapshot makes them again only
// for the files that changed and the files whose lookups the change
// alters (a file that uses a table whose text changed, an import whose
// file came or went). The rules that join files run again in full; they
// are cheap. It is safe for concurrent use; runs take turns.
type Checker struct {
	mu sync.Mutex
	// ix is the snapshot last checked in full, units its files' findings
	// in its order of paths, and digests the digests of its definitions
	// (deps.go).
	ix      *definitions.Index
	units   []*unit
	digests map[*definitions.Definition]string
	// remade counts the files whose findings the last Run made anew.
	remade int
	// once says the Checker runs once (the package's Run): it records no
	// lookups and keeps nothing.
	once bool
}

// unit is one file's findings of the file-by-file rules, with what they
// looked up elsewhere.
type unit struct {
	file  *definitions.File
	found [][]diag.Finding // by the rule's place in registry()
	any   bool             // whether found holds any finding
	deps  []seen
}

// seen is one lookup of a unit, with what it saw.
type seen struct {
	dep dep
	val string
}

// NewChecker returns a Checker that has checked nothing yet.
func NewChecker() *Checker {
	return &Checker{digests: map[*definitions.Definition]string{}}
}

// Run checks the project ix holds, as the package's Run does, making again
// only what changed since the snapshot this Checker checked last. A run
// stopped by ctx answers the findings so far and keeps nothing.
func (c *Checker) Run(ctx context.Context, ix *definitions.Index, opts Options) []diag.Finding {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := newShared(ix)
	s.values = &values{s: s, memo: map[dep]string{}, digests: c.digests}
	rules := registry()
	files := s.files

	ch, units := c.changeTo(files)
	var todo []int
	for i, u := range units {
		if u == nil || ch.alters(u, s.values) {
			units[i] = nil
			todo = append(todo, i)
		}
	}
	c.remake(ctx, s, rules, files, units, todo)

	// The findings in a full Run's order: rule by rule, file by file.
	var found []*unit
	for _, u := range units {
		if u != nil && u.any {
			found = append(found, u)
		}
	}
	out := append([]diag.Finding(nil), ix.Findings()...)
	for r, rule := range rules {
		for _, u := range found {
			out = append(out, u.found[r]...)
		}
		if rule.joined != nil && ctx.Err() == nil {
			out = append(out, rule.joined(s.joined())...)
		}
	}
	out = append(out, opts.Extra...)
	diag.Sort(out)
	if ctx.Err() != nil || c.once {
		return out
	}

	for _, old := range ch.gone {
		for _, d := range old.Definitions {
			delete(c.digests, d)
		}
	}
	c.ix, c.units, c.remade = ix, units, len(todo)
	return out
}

// remake makes the findings of the files at the indexes todo, on a pool of
// goroutines the size of the cores.
func (c *Checker) remake(ctx context.Context, s *shared, rules []Rule, files []*definitions.File, units []*unit, todo []int) {
	var next atomic.Int64
	work := func() {
		for k := int(next.Add(1) - 1); k < len(todo); k = int(next.Add(1) - 1) {
			if ctx.Err() != nil {
				return
			}
			i := todo[k]
			p := s.fileUnit(files[i])
			if c.once {
				p.deps = nil
			}
			u := &unit{file: files[i], found: make([][]diag.Finding, len(rules))}
			for r, rule := range rules {
				if rule.run != nil {
					u.found[r] = rule.run(p)
					u.any = u.any || len(u.found[r]) > 0
				}
			}
			u.deps = make([]seen, 0, len(p.deps))
			for d, val := range p.deps {
				u.deps = append(u.deps, seen{d, val})
			}
			units[i] = u
		}
	}
	workers := min(runtime.GOMAXPROCS(0), (len(todo)+63)/64)
	if workers <= 1 {
		work()
		return
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(work)
	}
	wg.Wait()
}

// change is what differs between the snapshot a Checker checked last and
// a new one, as far as the lookups of unchanged files can tell.
type change struct {
	all bool // nothing was checked before: everything is new
	// names are the names that changed files declare or declared.
	names map[string]bool
	// tables are the tables whose test data files changed.
	tables map[string]bool
	// paths says a file came or went (imports may resolve otherwise).
	paths bool
	// project says project.ts changed.
	project bool
	// code says a changed file's calls, sends, imports or exports differ
	// (the inferred sends of any function may differ).
	code bool
	// rows says a changed file's row shape differs
	// (definitions.SameRowShape): other files' row sites may differ.
	rows bool
	// gone are the old versions of the files that changed or went.
	gone []*definitions.File
}

// changeTo works out what changed from the last snapshot to files, and
// lines up the units of the files that did not change with files (nil
// for the others).
func (c *Checker) changeTo(files []*definitions.File) (*change, []*unit) {
	ch := &change{names: map[string]bool{}, tables: map[string]bool{}}
	units := make([]*unit, len(files))
	if c.ix == nil {
		ch.all = true
		return ch, units
	}
	// Both lists are sorted by path: walk them side by side.
	old := c.units
	i, j := 0, 0
	for i < len(files) || j < len(old) {
		switch {
		case j == len(old) || i < len(files) && files[i].Path < old[j].file.Path:
			ch.paths = true
			ch.touch(nil, files[i])
			i++
		case i == len(files) || old[j].file.Path < files[i].Path:
			ch.paths = true
			ch.touch(old[j].file, nil)
			ch.gone = append(ch.gone, old[j].file)
			j++
		default:
			if old[j].file == files[i] {
				units[i] = old[j]
			} else {
				ch.touch(old[j].file, files[i])
				ch.gone = append(ch.gone, old[j].file)
			}
			i++
			j++
		}
	}
	return ch, units
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
		}
		if f.TestData != nil {
			ch.tables[f.TestData.Table] = true
		}
		if f.Path == "project.ts" {
			ch.project = true
		}
	}
	if old == nil || new == nil || codeShape(old) != codeShape(new) {
		ch.code = true
	}
	if old == nil || new == nil || !definitions.SameRowShape(old, new) {
		ch.rows = true
	}
}

// alters reports whether the change may alter what unit u looked up: a
// lookup it could touch is worked out again and compared.
func (ch *change) alters(u *unit, v *values) bool {
	if ch.all {
		return true
	}
	for _, sn := range u.deps {
		d := sn.dep
		var may bool
		switch d.kind {
		case depDef, depFirst, depKindOf:
			may = ch.names[d.name]
		case depNames, depTableWas:
			may = len(ch.names) > 0
		case depRows:
			may = ch.tables[d.name]
		case depResolve:
			may = ch.paths
		case depProject:
			may = ch.project
		case depSends, depCalls:
			// The same names and kinds, calls, sends, imports and
			// exports in every changed file, and the same paths: the
			// search that infers them walks the same way.
			may = ch.code || ch.paths
		case depRowSites:
			// A changed file's calls, returns, escapes, imports or
			// exports can make a helper's parameter in another file a
			// row, or not; its own uses alter only its own sites.
			may = ch.rows || ch.paths
		}
		if may && v.of(d) != sn.val {
			return true
		}
	}
	return false
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
