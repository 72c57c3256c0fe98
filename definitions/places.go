package definitions

import (
	"sort"
)

// Places returns the plain places that name target, a definition
// ("orders") or a table's column ("orders.buyer"), sorted by path and
// offset (docs/pages/format.md §4): what rename changes and remove updates. An
// unknown target has none.
func (ix *Index) Places(target string) []Place {
	d, c, err := ix.Lookup(target)
	if err != nil {
		return nil
	}
	return ix.code().places(target, d, c)
}

// CodeSites returns the places inside code that may name target but
// cannot be proven to, each marked likely or maybe, the likely ones first,
// each group sorted by path and offset. A column named on a value the row
// flow proves a row of its table (RowSites) is likely. None of them is a
// plain place of target.
func (ix *Index) CodeSites(target string) []CodeSite {
	d, c, err := ix.Lookup(target)
	if err != nil {
		return nil
	}
	return ix.code().codeSites(target, d, c)
}

// PlacesAndSites returns what Places and CodeSites return for target,
// the plain places found once for both: references list both.
func (ix *Index) PlacesAndSites(target string) ([]Place, []CodeSite) {
	d, c, err := ix.Lookup(target)
	if err != nil {
		return nil, nil
	}
	ci := ix.code()
	places := ci.places(target, d, c)
	files := ci.wordFiles(siteWord(d, c))
	if c != nil {
		return places, ci.sitesIn(files, target, d, c, nil) // a column's sites leave no place out
	}
	return places, ci.sitesIn(files, target, d, c, places)
}

// CodeSitesAt returns the code sites of target in the file at path whose
// span holds off, as CodeSites would list them (the likely ones first):
// what may be named at a position, found from the words there, not from
// every file that holds the name.
func (ix *Index) CodeSitesAt(target, path string, off int) []CodeSite {
	d, c, err := ix.Lookup(target)
	if err != nil {
		return nil
	}
	return ix.code().codeSitesAt(target, d, c, path, off)
}

// LikelyTablesAt returns the tables whose column named word a code site
// at off of the file at path is likely to name (CodeSites' rule: an
// object key of a row of the table, or a column the row flow proves on
// a row of it): of all the tables with such a column, only these may
// have a likely site there.
func (ix *Index) LikelyTablesAt(path string, off int, word string) []string {
	f := ix.File(path)
	if f == nil {
		return nil
	}
	var out []string
	for _, w := range f.wordsOf(word) {
		if w.Span.Start > off || off > w.Span.End {
			continue
		}
		if w.Why == WhyObjectKey && w.Table != "" {
			out = append(out, w.Table)
		}
		if rs, ok := ix.RowSiteAt(path, w.Span.Start); ok && rs.Column.Span == w.Span {
			out = append(out, rs.Table)
		}
	}
	return out
}

// CodeSiteCount counts the code sites of target, as many as CodeSites
// lists, without making, marking or sorting them: a hover says how many.
func (ix *Index) CodeSiteCount(target string) int {
	d, c, err := ix.Lookup(target)
	if err != nil {
		return 0
	}
	ci := ix.code()
	word := siteWord(d, c)
	files := ci.wordFiles(word)
	if len(files) == 0 {
		return 0
	}
	isPlace := ci.notSites(target, d, c)
	n := 0
	for _, f := range files {
		for _, w := range f.wordsOf(word) {
			if isPlace.has(f.Path, w.Span.Start) {
				continue
			}
			if _, ok := siteMark(d, c, w); ok {
				n++ // the row flow changes a site's mark, never whether it is one
			}
		}
	}
	return n
}

// References counts what names the definition called name besides its
// own name: its plain places but the name itself (imports, identifiers,
// refs, steps, test data; see Places) and its likely code sites (see
// CodeSites); 0 where there is no such definition. It is what counting
// Places and CodeSites gives, without making and sorting them: the map
// counts every definition's.
func (ix *Index) References(name string) int {
	d, c, err := ix.Lookup(name)
	if err != nil || c != nil {
		return 0
	}
	ci := ix.code()
	places := ci.definitionPlaces(name, d)
	places = sortPlaces(places) // drops a place found twice
	n := 0
	for _, p := range places {
		if p.Kind != PlaceName {
			n++
		}
	}
	isPlace := placeSet{places: places}
	for _, f := range ci.wordFiles(d.Name) {
		for _, w := range f.wordsOf(d.Name) {
			if isPlace.has(f.Path, w.Span.Start) {
				continue
			}
			if mark, ok := siteMark(d, nil, w); ok && mark == Likely {
				n++
			}
		}
	}
	return n
}

// This file finds the places that name a definition or a column
// (docs/pages/format.md §4): the plain places that rename changes and remove updates,
// and the code sites that they only list. The lookups they run on are in
// codeindex.go.

// addDeclared records the declarative places of d that name definitions.
func (j *codeJoin) addDeclared(d *Definition) {
	add := func(n NameRef, k PlaceKind) {
		if n.Name == "" || n.Span == (Span{}) {
			return
		}
		j.declared[n.Name] = append(j.declared[n.Name], Place{Target: n.Name, Path: d.Path, Span: n.Span, Kind: k})
	}
	refs := func(cols []*Column) {
		for _, c := range cols {
			if c.RefName != nil {
				add(*c.RefName, PlaceRef)
			}
		}
	}
	switch {
	case d.Table != nil:
		refs(d.Table.Columns)
		for _, w := range d.Table.Was {
			add(w, PlaceWas)
		}
	case d.Fn != nil:
		refs(d.Fn.Input)
	case d.Flow != nil:
		refs(d.Flow.Input)
		for _, s := range d.Flow.Steps {
			add(s, PlaceStep)
		}
	case d.Project != nil:
		add(d.Project.Users, PlaceUsers)
		for _, r := range d.Project.Removed {
			add(r, PlaceRemoved)
		}
	}
}

// places returns the plain places of target, definition d or (where c is
// not nil) its column c, sorted by path and offset.
func (ci *codeIndex) places(target string, d *Definition, c *Column) []Place {
	var out []Place
	if c != nil {
		out = ci.columnPlaces(target, d, c)
	} else {
		out = ci.definitionPlaces(target, d)
	}
	return sortPlaces(out)
}

// sortPlaces sorts ps by path and offset and answers them without a place
// found twice.
func sortPlaces(ps []Place) []Place {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Path != ps[j].Path {
			return ps[i].Path < ps[j].Path
		}
		return ps[i].Span.Start < ps[j].Span.Start
	})
	// A place may be found twice (a local `export { orders }` is both the
	// file's own export and a link of its chain): keep one.
	out := ps[:0]
	for i, p := range ps {
		if i > 0 && p.Path == ps[i-1].Path && p.Span == ps[i-1].Span {
			continue
		}
		out = append(out, p)
	}
	clear(ps[len(out):])
	return out
}

// definitionPlaces lists the places of definition d.
func (ci *codeIndex) definitionPlaces(target string, d *Definition) []Place {
	name := d.Name
	var out []Place
	add := func(path string, sp Span, k PlaceKind, shorthand bool) {
		out = append(out, Place{Target: target, Path: path, Span: sp, Kind: k, Shorthand: shorthand})
	}
	add(d.Path, d.NameSpan, PlaceName, false)
	if f := ci.file(d.Path); f != nil {
		ci.usesIn(f, name, target, &out)
	}
	ci.linkPlaces(d.Path, name, target, &out)
	for _, p := range ci.declared(name) {
		p.Target = target
		out = append(out, p)
	}
	if d.Kind == KindTable {
		if f := ci.testdata(name); f != nil {
			add(f.Path, Span{}, PlaceTestDataFile, false)
		}
	}
	return out
}

// usesIn adds the IdentRefs of name in f, and the export specifiers of f
// that export name without a module.
func (ci *codeIndex) usesIn(f *File, name, target string, out *[]Place) {
	for _, r := range f.IdentRefs() {
		if r.Name == name {
			*out = append(*out, Place{Target: target, Path: f.Path, Span: r.Span, Kind: PlaceIdentifier, Shorthand: r.Shorthand})
		}
	}
	for _, e := range f.Exports {
		if e.Module == "" && e.Local == name {
			*out = append(*out, Place{Target: target, Path: f.Path, Span: e.LocalSpan, Kind: PlaceExport})
		}
	}
}

// linkPlaces follows the files that import name from the file at path,
// and the files that re-export it from there, transitively. The module
// a name travels through is known by its path; a name travels on only
// while it keeps its spelling: `import { orders as o }` and
// `export { orders as o }` end the trail at the specifier's first name.
func (ci *codeIndex) linkPlaces(path, name, target string, out *[]Place) {
	seen := map[string]bool{path: true}
	queue := []string{path}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		links := ci.importers(p)
		readCodeOf(linkFiles(links)) // their IdentRefs, in parallel
		for _, l := range links {
			im := l.file.Imports[l.index]
			switch {
			case im.Imported == name:
				*out = append(*out, Place{Target: target, Path: l.file.Path, Span: im.ImportedSpan, Kind: PlaceImport})
				if im.Local != name {
					continue // aliased: the alias and its uses stay
				}
				ci.usesIn(l.file, name, target, out)
				// `export { orders }` of the imported binding passes it on.
				for _, e := range l.file.Exports {
					if e.Module == "" && e.Local == name && e.Exported == name && !seen[l.file.Path] {
						seen[l.file.Path] = true
						queue = append(queue, l.file.Path)
					}
				}
			case im.Imported == "*":
				ci.namespaceMembers(l.file, im.Local, name, target, out)
			}
		}
		for _, l := range ci.reexporters(p) {
			e := l.file.Exports[l.index]
			switch {
			case e.Local == name:
				*out = append(*out, Place{Target: target, Path: l.file.Path, Span: e.LocalSpan, Kind: PlaceExport})
				if e.Exported != name {
					continue
				}
			case e.Local == "*" && e.Exported == "*":
			default:
				continue
			}
			if !seen[l.file.Path] {
				seen[l.file.Path] = true
				queue = append(queue, l.file.Path)
			}
		}
	}
}

// namespaceMembers adds the accesses `ns.name` in f, where ns is a
// namespace import of the module that provides name: they name the
// definition as surely as an identifier does.
func (ci *codeIndex) namespaceMembers(f *File, ns, name, target string, out *[]Place) {
	nsEnds := map[int]bool{}
	for _, r := range f.IdentRefs() {
		if r.Name == ns {
			nsEnds[r.Span.End] = true
		}
	}
	if len(nsEnds) == 0 {
		return
	}
	for _, w := range f.wordsOf(name) {
		if w.Why != WhyProperty {
			continue
		}
		if e, ok := memberObjectEnd(f.Src, w.Span.Start); ok && nsEnds[e] {
			*out = append(*out, Place{Target: target, Path: f.Path, Span: w.Span, Kind: PlaceIdentifier})
		}
	}
}

// memberObjectEnd returns where the object of a member access ends, given
// the start of its property: it steps back over `.` or `?.` and spaces.
func memberObjectEnd(src []byte, prop int) (int, bool) {
	i := prop
	for i > 0 && isSpace(src[i-1]) {
		i--
	}
	if i == 0 || src[i-1] != '.' {
		return 0, false
	}
	i--
	if i > 0 && src[i-1] == '?' {
		i--
	}
	for i > 0 && isSpace(src[i-1]) {
		i--
	}
	return i, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// columnPlaces lists the places of column c of definition d.
func (ci *codeIndex) columnPlaces(target string, d *Definition, c *Column) []Place {
	name := c.Schema.Name
	var out []Place
	add := func(path string, sp Span, k PlaceKind) {
		out = append(out, Place{Target: target, Path: path, Span: sp, Kind: k})
	}
	if c.Prop != nil {
		if f := ci.file(d.Path); f != nil {
			add(d.Path, unquoted(f.Src, c.Prop.KeySpan), PlaceName)
		}
	}
	t := d.Table
	if t == nil {
		return out
	}
	for _, idx := range t.Indexes {
		for _, n := range idx {
			if n.Name == name {
				add(d.Path, n.Span, PlaceIndex)
			}
		}
	}
	for _, n := range t.Removed {
		if n.Name == name {
			add(d.Path, n.Span, PlaceRemoved)
		}
	}
	for _, col := range t.Columns {
		for _, n := range col.Was {
			if n.Name == name {
				add(d.Path, n.Span, PlaceWas)
			}
		}
	}
	if f := ci.testdata(d.Name); f != nil {
		for _, row := range f.TestData.Rows {
			for _, k := range row.Keys {
				if k.Name.Name == name {
					add(f.Path, k.Name.Span, PlaceTestDataKey)
				}
			}
		}
	}
	return out
}

// unquoted returns the span inside the quotes of a quoted key.
func unquoted(src []byte, sp Span) Span {
	if sp.End-sp.Start >= 2 && sp.End <= len(src) {
		if q := src[sp.Start]; (q == '\'' || q == '"') && src[sp.End-1] == q {
			return Span{sp.Start + 1, sp.End - 1}
		}
	}
	return sp
}

// codeSites returns the code sites of target, definition d or (where c
// is not nil) its column c, sorted by path and offset: the words of code
// that match its name and are no plain place.
func (ci *codeIndex) codeSites(target string, d *Definition, c *Column) []CodeSite {
	files := ci.wordFiles(siteWord(d, c))
	if len(files) == 0 {
		return nil // no word to look at: no places to find either
	}
	return ci.sitesIn(files, target, d, c, ci.notSites(target, d, c).places)
}

// sitesIn returns the code sites of target, definition d or (where c is
// not nil) its column c, in files (those that hold its word), sorted as
// codeSites sorts them: the words of code that match its name and begin
// none of places (sorted by path and offset).
func (ci *codeIndex) sitesIn(files []*File, target string, d *Definition, c *Column, places []Place) []CodeSite {
	if len(files) == 0 {
		return nil
	}
	word := siteWord(d, c)
	isPlace := &placeSet{places: places}
	var out []CodeSite
	for _, f := range files {
		for _, w := range f.wordsOf(word) {
			if site, ok := ci.siteOf(target, d, c, f, w, isPlace); ok {
				out = append(out, site)
			}
		}
	}
	sortSites(out)
	return out
}

// codeSitesAt returns the code sites of target in the file at path whose
// span holds off, as codeSites lists them: from the words there, not
// from every file that holds the word.
func (ci *codeIndex) codeSitesAt(target string, d *Definition, c *Column, path string, off int) []CodeSite {
	f := ci.file(path)
	if f == nil {
		return nil
	}
	word := siteWord(d, c)
	var at []Word
	for _, w := range f.wordsOf(word) {
		if w.Span.Start <= off && off <= w.Span.End {
			at = append(at, w)
		}
	}
	if len(at) == 0 {
		return nil
	}
	isPlace := ci.notSites(target, d, c)
	var out []CodeSite
	for _, w := range at {
		if site, ok := ci.siteOf(target, d, c, f, w, isPlace); ok {
			out = append(out, site)
		}
	}
	sortSites(out)
	return out
}

// notSites are the plain places of definition d, which are no code sites
// of it; a column's code sites leave none out.
func (ci *codeIndex) notSites(target string, d *Definition, c *Column) *placeSet {
	if c != nil {
		return &placeSet{}
	}
	return &placeSet{places: ci.places(target, d, nil)}
}

// placeSet says whether a word begins one of places (sorted by path and
// offset), without a map of every path: the places of the path last
// asked about are found by a search and kept.
type placeSet struct {
	places []Place
	path   string
	here   []Place // the places of path
	asked  bool
}

// has reports whether a place of the file at path begins at start.
func (s *placeSet) has(path string, start int) bool {
	if !s.asked || path != s.path {
		s.path, s.asked = path, true
		i := sort.Search(len(s.places), func(k int) bool { return s.places[k].Path >= path })
		j := i
		for j < len(s.places) && s.places[j].Path == path {
			j++
		}
		s.here = s.places[i:j]
	}
	for _, p := range s.here {
		if p.Span.Start == start {
			return true
		}
	}
	return false
}

// siteOf is the code site of target that the word w of file f is, if it
// is one.
func (ci *codeIndex) siteOf(target string, d *Definition, c *Column, f *File, w Word, isPlace *placeSet) (CodeSite, bool) {
	if isPlace.has(f.Path, w.Span.Start) {
		return CodeSite{}, false
	}
	mark, ok := siteMark(d, c, w)
	if !ok {
		return CodeSite{}, false
	}
	if c != nil && mark == Maybe {
		// A column named on a value the row flow proves a row of the
		// very table (rowsites.go).
		if rs, ok := ci.ix.RowSiteAt(f.Path, w.Span.Start); ok && rs.Table == d.Name && rs.Column.Span == w.Span {
			mark = Likely
		}
	}
	return CodeSite{Target: target, Path: f.Path, Span: w.Span, Why: w.Why, Mark: mark}, true
}

// sortSites puts the likely sites first, each group by path and offset.
func sortSites(out []CodeSite) {
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Mark != out[j].Mark {
			return out[i].Mark == Likely
		}
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Span.Start < out[j].Span.Start
	})
}

// siteWord is the word a code site of definition d (c == nil) or of its
// column c is: the definition's name, or the column's.
func siteWord(d *Definition, c *Column) string {
	if c != nil {
		return c.Schema.Name
	}
	return d.Name
}

// siteMark says how sure a word is to name definition d (c == nil) or its
// column c; ok is false for a word that surely names something else: for
// a column, a db accessor names a table and a call name a function.
func siteMark(d *Definition, c *Column, w Word) (Mark, bool) {
	if c != nil {
		switch w.Why {
		case WhyDBAccessor, WhyCallName:
			return "", false
		case WhyObjectKey:
			if w.Table == d.Name && d.Kind == KindTable {
				return Likely, true
			}
		}
		return Maybe, true
	}
	switch {
	case w.Why == WhyDBAccessor && d.Kind == KindTable:
		return Likely, true
	case w.Why == WhyCallName && d.Kind == KindFn:
		return Likely, true
	}
	return Maybe, true
}

// linkFiles are the files of links.
func linkFiles(links []moduleLink) []*File {
	out := make([]*File, len(links))
	for i, l := range links {
		out[i] = l.file
	}
	return out
}
