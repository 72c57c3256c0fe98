package definitions

import (
	"slices"
	"sort"
	"strconv"
	"strings"
)

// This file joins the files' row flows (rowflow.go) into the row sites of
// the project: the places where code names a column on a value that is
// certainly a row (or a list of rows) of one table. A parameter of a
// project function is a row of T where every call of it in the project
// passes one and nothing names the function but its calls; what a
// function returns is a row of T where each of its returns is one. The
// join runs once per snapshot, over the flows alone (no tree is read).

// RowSite is a place in code that names a column of a row of Table.
type RowSite struct {
	Path   string
	Def    string // the definition around, "" in a helper
	Table  string
	Column NameRef
	How    RowHow
	// From says where the row came from where the code took it from its
	// ctx: "ctx.user", or "ctx.call('N')"; "" otherwise.
	From string
}

// RowSites returns the row sites of the file at path, by offset.
func (ix *Index) RowSites(path string) []RowSite {
	return ix.rowSites().get(path)
}

// AllRowSites returns every row site of the project, by path and offset.
func (ix *Index) AllRowSites() []RowSite {
	all := ix.rowSites()
	var out []RowSite
	for _, f := range ix.sorted.all() {
		out = append(out, all.get(f.Path)...)
	}
	return out
}

// RowSiteAt returns the row site of the file at path whose column name
// starts at offset, and whether there is one.
func (ix *Index) RowSiteAt(path string, offset int) (RowSite, bool) {
	sites := ix.rowSites().get(path)
	i := sort.Search(len(sites), func(i int) bool { return sites[i].Column.Span.Start >= offset })
	if i < len(sites) && sites[i].Column.Span.Start == offset {
		return sites[i], true
	}
	return RowSite{}, false
}

func (ix *Index) rowSites() rowSiteMap {
	ix.rowsOnce.Do(func() { ix.rowsBy = ix.joinRows() })
	return ix.rowsBy
}

// rowSiteMap is the row sites of one snapshot by path: base, the sites of
// the lineage's full join, shared and never changed, under over, the sites
// of the files resolved again on top of it (nil where a file has none).
// A snapshot so costs its changed files, not a copy of every file's sites.
type rowSiteMap struct {
	base, over map[string][]RowSite
}

// get returns the row sites of the file at path.
func (m rowSiteMap) get(path string) []RowSite {
	if s, ok := m.over[path]; ok {
		return s
	}
	return m.base[path]
}

// rowBase is a full join of the row flows that the snapshots of a lineage
// share: a snapshot whose files are its files but for a few, each with the
// same row shape (SameRowShape) as before, resolves only those few again
// and takes the other files' sites as they are. A keystroke in a
// function's body so costs the sites of its file, not the project's.
type rowBase struct {
	users  string // the users table, which every ctx.user is a row of
	files  []*File
	byPath map[string]*File
	j      *rowJoin
	sites  map[string][]RowSite
}

// joinRows answers ix's row sites from the lineage's base where it can,
// else joins all files and keeps that as the base.
func (ix *Index) joinRows() rowSiteMap {
	l := ix.lineage
	l.mu.Lock()
	base := l.rows
	l.mu.Unlock()
	if base != nil {
		if changed, ok := ix.changedFrom(base, base.files); ok && base.users == usersTable(ix) && sameShapes(base, changed) {
			j := &rowJoin{ix: ix, calls: base.j.calls, escaped: base.j.escaped, memo: map[string]rowOf{}, base: base.j.memo, busy: map[string]bool{}}
			over := make(map[string][]RowSite, len(changed))
			for _, f := range changed {
				over[f.Path] = j.fileSites(f)
			}
			return rowSiteMap{base: base.sites, over: over}
		}
	}
	j, sites := joinRowFlows(ix)
	old := base
	base = &rowBase{users: usersTable(ix), files: ix.sorted.all(), byPath: make(map[string]*File, ix.sorted.len()), j: j, sites: sites}
	for _, f := range ix.sorted.all() {
		base.byPath[f.Path] = f
	}
	l.mu.Lock()
	l.rows = base
	l.anchorJoin(old, base, ix.ID())
	l.mu.Unlock()
	return rowSiteMap{base: sites}
}

// sameShapes reports whether each changed file has the row shape its
// version in base had.
func sameShapes(base *rowBase, changed []*File) bool {
	for _, f := range changed {
		old := base.byPath[f.Path]
		if old == nil || !SameRowShape(old, f) {
			return false
		}
	}
	return true
}

// SameRowShape reports whether two versions of a file say the same to
// the row sites of other files: the same top-level functions, calls of
// project functions (with what each argument is), returns and escapes,
// and the same imports and exports. Where it holds, only the file's own
// row sites can differ.
func SameRowShape(a, b *File) bool {
	ra, rb := &a.Uses.Rows, &b.Uses.Rows
	if !slices.Equal(ra.Funcs, rb.Funcs) || !slices.Equal(ra.Escapes, rb.Escapes) || !slices.Equal(ra.Returns, rb.Returns) ||
		len(ra.Calls) != len(rb.Calls) || len(a.Imports) != len(b.Imports) || len(a.Exports) != len(b.Exports) {
		return false
	}
	for i := range ra.Calls {
		if ra.Calls[i].Callee != rb.Calls[i].Callee || !slices.Equal(ra.Calls[i].Args, rb.Calls[i].Args) {
			return false
		}
	}
	for i := range a.Imports {
		x, y := a.Imports[i], b.Imports[i]
		if x.Module != y.Module || x.Imported != y.Imported || x.Local != y.Local {
			return false
		}
	}
	for i := range a.Exports {
		x, y := a.Exports[i], b.Exports[i]
		if x.Module != y.Module || x.Exported != y.Exported || x.Local != y.Local {
			return false
		}
	}
	return true
}

// rowOf is what an origin resolves to: a row of table (a list of them
// where list) or a run's ctx, ok where certain.
type rowOf struct {
	table string
	list  bool
	ctx   bool
	ok    bool
}

type rowJoin struct {
	ix      *Index
	calls   map[string][]rowCallIn // by target "path#F"
	escaped map[string]bool        // targets
	memo    map[string]rowOf
	// base is the memo of the lineage's full join, read only, where this
	// join resolves a few files on top of it (rowBase).
	base map[string]rowOf
	busy map[string]bool
	// targets memoizes target.
	targets map[targetKey]string
}

// memoOf answers what key resolved to, in this join's memo or its base's.
func (j *rowJoin) memoOf(key string) (rowOf, bool) {
	if r, ok := j.memo[key]; ok {
		return r, true
	}
	r, ok := j.base[key]
	return r, ok
}

type rowCallIn struct {
	from string // the caller's path
	args []RowOrigin
}

func joinRowFlows(ix *Index) (*rowJoin, map[string][]RowSite) {
	j := &rowJoin{ix: ix, calls: map[string][]rowCallIn{}, escaped: map[string]bool{}, memo: map[string]rowOf{}, busy: map[string]bool{}}
	for _, f := range ix.sorted.all() {
		fl := &f.Uses.Rows
		for _, c := range fl.Calls {
			if t := j.target(f, c.Callee); t != "" {
				j.calls[t] = append(j.calls[t], rowCallIn{from: f.Path, args: c.Args})
			}
		}
		for _, b := range fl.Escapes {
			if t := j.target(f, b); t != "" {
				j.escaped[t] = true
			}
		}
	}
	out := map[string][]RowSite{}
	for _, f := range ix.sorted.all() {
		if s := j.fileSites(f); s != nil {
			out[f.Path] = s
		}
	}
	return j, out
}

// fileSites resolves the row uses of file f into its row sites, by
// offset; nil where it has none.
func (j *rowJoin) fileSites(f *File) []RowSite {
	uses := f.Uses.Rows.Uses
	if len(uses) == 0 {
		return nil
	}
	// Most uses are sites: one slice for them all.
	sites := make([]RowSite, 0, len(uses))
	sorted := true
	for _, u := range uses {
		r := j.resolve(u.Of, f.Path)
		if !r.ok || r.list || r.ctx {
			continue
		}
		if n := len(sites); n > 0 && sites[n-1].Column.Span.Start > u.Column.Span.Start {
			sorted = false
		}
		sites = append(sites, RowSite{Path: f.Path, Def: u.Def, Table: r.table, Column: u.Column, How: u.How, From: rowFrom(u.Of.Via)})
	}
	if len(sites) == 0 {
		return nil
	}
	if !sorted {
		slices.SortStableFunc(sites, func(a, b RowSite) int { return a.Column.Span.Start - b.Column.Span.Start })
	}
	return sites
}

// target is the function that binding b of file f names, as "path#F",
// following re-exports; "" where it is no top-level function of a project
// file.
func (j *rowJoin) target(f *File, b string) string {
	// A module binding names the same function from every file of a
	// folder: resolved once per folder (most calls are of a few helpers).
	key := targetKey{f.Path, b}
	if !strings.HasPrefix(b, "#") {
		key.from = dirOf(f.Path)
	}
	if t, ok := j.targets[key]; ok {
		return t
	}
	t := j.resolveTarget(f, b)
	if j.targets == nil {
		j.targets = map[targetKey]string{}
	}
	j.targets[key] = t
	return t
}

// targetKey is what a binding's target depends on: the file's folder for
// a module's binding, the file for one of its own functions.
type targetKey struct{ from, binding string }

// resolveTarget is target, not memoized.
func (j *rowJoin) resolveTarget(f *File, b string) string {
	module, name, ok := strings.Cut(b, "#")
	if !ok {
		return ""
	}
	if module == "" {
		if slices.Contains(f.Uses.Rows.Funcs, name) {
			return f.Path + "#" + name
		}
		return ""
	}
	p := j.ix.code().resolve(f.Path, module)
	if p == "" {
		return ""
	}
	return j.exported(p, name, 0)
}

// exported is the function that file p exports as name.
func (j *rowJoin) exported(p, name string, depth int) string {
	g := j.ix.files.get(p)
	if g == nil || depth > maxReexports {
		return ""
	}
	for _, e := range g.Exports {
		if e.Exported != name && !(e.Exported == "*" && e.Local == "*") {
			continue
		}
		local := e.Local
		if e.Local == "*" {
			local = name
		}
		if e.Module == "" {
			if slices.Contains(g.Uses.Rows.Funcs, local) {
				return g.Path + "#" + local
			}
			continue
		}
		if q := j.ix.code().resolve(g.Path, e.Module); q != "" {
			if t := j.exported(q, local, depth+1); t != "" {
				return t
			}
		}
	}
	if slices.Contains(g.Uses.Rows.Funcs, name) {
		return g.Path + "#" + name
	}
	return ""
}

// resolve is what origin o of a value in the file at path is.
func (j *rowJoin) resolve(o RowOrigin, path string) rowOf {
	var r rowOf
	switch {
	case o.Table != "":
		return rowOf{table: o.Table, list: o.List, ok: true}
	case o.Param != "":
		r = j.param(path, o.Param)
	case o.Call != "":
		f := j.ix.files.get(path)
		if f == nil {
			return rowOf{}
		}
		r = j.returns(j.target(f, o.Call))
	case o.Ctx:
		r = rowOf{ctx: true, ok: true}
	default:
		return rowOf{}
	}
	if o.Via != "" {
		if !r.ok || !r.ctx {
			return rowOf{}
		}
		r = j.via(o.Via)
	}
	if o.Elem {
		if !r.ok || !r.list {
			return rowOf{}
		}
		r.list = false
	}
	return r
}

// param is what the k-th parameter of function F ("F:k") of the file at
// path is: what every call passes, where they agree.
func (j *rowJoin) param(path, fk string) rowOf {
	name, ks, _ := strings.Cut(fk, ":")
	k, err := strconv.Atoi(ks)
	if err != nil {
		return rowOf{}
	}
	t := path + "#" + name
	key := "p " + t + ":" + ks
	if r, ok := j.memoOf(key); ok {
		return r
	}
	if j.busy[key] || j.escaped[t] {
		return rowOf{}
	}
	j.busy[key] = true
	var r rowOf
	for i, c := range j.calls[t] {
		if k >= len(c.args) {
			r = rowOf{}
			break
		}
		got := j.resolve(c.args[k], c.from)
		if !got.ok || (i > 0 && got != r) {
			r = rowOf{}
			break
		}
		r = got
	}
	delete(j.busy, key)
	j.memo[key] = r
	return r
}

// returns is what function target returns, where all its returns agree.
func (j *rowJoin) returns(t string) rowOf {
	if t == "" {
		return rowOf{}
	}
	key := "r " + t
	if r, ok := j.memoOf(key); ok {
		return r
	}
	if j.busy[key] {
		return rowOf{}
	}
	path, name, _ := strings.Cut(t, "#")
	f := j.ix.files.get(path)
	if f == nil {
		return rowOf{}
	}
	j.busy[key] = true
	var r rowOf
	n := 0
	for _, rt := range f.Uses.Rows.Returns {
		if rt.Func != name {
			continue
		}
		got := j.resolve(rt.Of, path)
		if !got.ok || (n > 0 && got != r) {
			r = rowOf{}
			break
		}
		r = got
		n++
	}
	delete(j.busy, key)
	j.memo[key] = r
	return r
}

// via is what a run's ctx gives by how: its user, a row of the project's
// users table (format.md §6: null for nobody, { system: true } for the
// system, whose columns the row flow does not name), or what
// ctx.call('N') returns: what the run of the one definition N returns
// (a flow's last step's, recorded as its return).
func (j *rowJoin) via(how string) rowOf {
	if how == "user" {
		return rowOf{table: usersTable(j.ix), ok: true}
	}
	name, ok := strings.CutPrefix(how, "call:")
	if !ok {
		return rowOf{}
	}
	ds := j.ix.DefinitionsNamed(name)
	if len(ds) != 1 || ds[0].Kind != KindFn && ds[0].Kind != KindFlow {
		return rowOf{}
	}
	return j.returns(ds[0].Path + "#@" + name)
}

// usersTable is the table project.ts names as its users ("users" where
// it names none).
func usersTable(ix *Index) string {
	if p := ix.Project(); p != nil && p.Project != nil && p.Project.Users.Name != "" {
		return p.Project.Users.Name
	}
	return "users"
}

// rowFrom says in the words of code where a row taken by how (RowOrigin.Via)
// came from.
func rowFrom(how string) string {
	if how == "user" {
		return "ctx.user"
	}
	if name, ok := strings.CutPrefix(how, "call:"); ok {
		return "ctx.call('" + name + "')"
	}
	return ""
}
