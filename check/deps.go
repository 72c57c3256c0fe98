package check

import (
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// A dep is one thing a file's rules looked up outside the file: what they
// saw of it is kept with the file's findings, and a change that alters it
// makes them again (Checker).
type dep struct {
	kind depKind
	name string
}

// depKind says what a dep looked up.
type depKind uint8

const (
	// depDef is the whole first definition named name but where it
	// stands: its path, kind, builder, its statement's text and its
	// file's imports, from which the index reads all of it.
	depDef depKind = iota
	// depFirst is which definition is the first named name: its path,
	// offset, line and column, and kind.
	depFirst
	// depKind is the kind of the first definition named name.
	depKindOf
	// depNames is the sorted names of one kind (name is the kind).
	depNames
	// depTableWas is the was names of every table.
	depTableWas
	// depRows is the ids of the test data rows of table name.
	depRows
	// depResolve is the file an import resolves to (name is the importing
	// path and the module, split by a NUL).
	depResolve
	// depProject is the whole project definition, as depDef.
	depProject
	// depSends and depCalls are the ways definition name is inferred to
	// send, and the functions it calls.
	depSends
	depCalls
	// depRowSites is the row sites of the file at path name: which of
	// its values the project proves rows of which table.
	depRowSites
)

// record notes what the rule sees of d, unless p records nothing.
func (p *pass) record(d dep) {
	if p.deps == nil {
		return
	}
	if _, seen := p.deps[d]; seen {
		return
	}
	p.deps[d] = p.values.of(d)
}

// saw notes what the rule saw of d, worked out by the caller the same way
// values.of would, unless p records nothing.
func (p *pass) saw(d dep, val string) {
	if p.deps != nil {
		p.deps[d] = val
	}
}

// values computes what a dep sees in one run's index, each once.
type values struct {
	s  *shared
	mu sync.Mutex
	// memo holds the values computed in this run.
	memo map[dep]string
	// digests holds the digest of each definition, kept by a Checker
	// from run to run (a definition of an unchanged file is the same
	// *Definition in every snapshot).
	digests map[*definitions.Definition]string
}

// seed keys the digests; they live only in memory.
var seed = maphash.MakeSeed()

// of returns what d sees in the run's index.
func (v *values) of(d dep) string {
	v.mu.Lock()
	defer v.mu.Unlock()
	if val, ok := v.memo[d]; ok {
		return val
	}
	val := v.compute(d)
	v.memo[d] = val
	return val
}

// compute works out d's value; v.mu is held.
func (v *values) compute(d dep) string {
	s := v.s
	switch d.kind {
	case depDef:
		return v.digest(s.firstOf(d.name))
	case depProject:
		return v.digest(s.projectDef())
	case depFirst:
		first := s.firstOf(d.name)
		if first == nil {
			return ""
		}
		line, col := 0, 0
		if f := s.ix.File(first.Path); f != nil {
			line, col = f.Pos(first.NameSpan.Start)
		}
		return first.Path + "\x00" + strconv.Itoa(first.NameSpan.Start) + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col) + "\x00" + string(first.Kind)
	case depKindOf:
		return string(kindOf(s.firstOf(d.name)))
	case depNames:
		// The tables count each change of a sorted list: the count says
		// whether the list is the one a unit saw.
		if k := namesSlot(definitions.Kind(d.name)); k >= 0 {
			return strconv.FormatUint(s.gen[k], 36)
		}
		return ""
	case depTableWas:
		return strconv.FormatUint(s.wasGen, 36)
	case depRows:
		set := s.rowSet(d.name)
		ids := make([]string, 0, len(set))
		for id := range set {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return hashStrings(ids)
	case depResolve:
		from, module, _ := strings.Cut(d.name, "\x00")
		return s.ix.ResolveModule(from, module)
	case depSends:
		_, inferred := s.ix.Sends(d.name)
		return strings.Join(inferred, ",")
	case depCalls:
		return strings.Join(s.ix.Calls(d.name), "\x00")
	case depRowSites:
		return rowSitesValue(s.ix.RowSites(d.name))
	}
	panic("check: unknown dep kind " + strconv.Itoa(int(d.kind)))
}

// digest is what the index reads a definition from, hashed: its path,
// kind and builder, the text of its statement and its file's imports
// (which say what the builders are), and the whole file's text where it
// does not parse. "" for nil. Where it stands is not
// in it: no rule of one file names a place in another but through
// depFirst.
func (v *values) digest(d *definitions.Definition) string {
	if d == nil {
		return ""
	}
	if val, ok := v.digests[d]; ok {
		return val
	}
	var h maphash.Hash
	h.SetSeed(seed)
	h.WriteString(d.Path)
	h.WriteByte(0)
	h.WriteString(string(d.Kind))
	h.WriteByte(0)
	h.WriteString(d.Builder)
	h.WriteByte(0)
	if f := v.s.ix.File(d.Path); f != nil {
		if d.Stmt.Start >= 0 && d.Stmt.Start <= d.Stmt.End && d.Stmt.End <= len(f.Src) {
			h.Write(f.Src[d.Stmt.Start:d.Stmt.End])
		}
		for _, im := range f.Imports {
			h.WriteByte(0)
			h.WriteString(im.Module + "\x01" + im.Imported + "\x01" + im.Local)
		}
		// A file that does not parse is read by the parser's recovery,
		// which may read a statement otherwise for text elsewhere in
		// the file (a brace added after it): the whole text counts.
		if unparsed(f) {
			h.WriteByte(0)
			h.Write(f.Src)
		}
	}
	val := strconv.FormatUint(h.Sum64(), 36)
	v.digests[d] = val
	return val
}

// unparsed reports whether a file has syntax errors or is no UTF-8.
func unparsed(f *definitions.File) bool {
	for _, fd := range f.Findings {
		if fd.Code == diag.T1001 || fd.Code == diag.T1003 {
			return true
		}
	}
	return false
}

// hashStrings hashes a list of strings.
func hashStrings(xs []string) string {
	var h maphash.Hash
	h.SetSeed(seed)
	for _, x := range xs {
		h.WriteString(x)
		h.WriteByte(0)
	}
	return strconv.FormatUint(h.Sum64(), 36)
}
