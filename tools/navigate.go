package tools

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/schema"
)

// The features of a position in a file, on a snapshot of the project
// (Workspace.Index): what a position names, where it is declared, what a
// hover says of it, and the symbols a query finds. They are here, behind
// the door, so that every face answers alike: the language server
// converts them to its protocol, and nothing of them is written in a face.

// Target is what a position names: a definition ("orders") or a column
// ("orders.buyer"), with the span of the name there and whether that is a
// plain place (which a rename changes) or only a code site.
type Target struct {
	Name  string
	Path  string
	Span  definitions.Span
	Plain bool
	Mark  definitions.Mark
}

// TargetAt finds the definition or column named at off in the file rel:
// a plain place first, else a code site (likely before maybe).
//
// A plain place of a column lies in its table's own file or in its test
// data (definitions.Index.Places), so the plain places at off are looked
// for among the definition of the word and the columns of that name of
// the tables rel declares or holds the test data of: a rename or hover at
// a name costs what names it, not a pass over every table. Only a code
// site may name a column of any table: each candidate's sites are asked
// at the word there (CodeSitesAt), not listed over the project.
func TargetAt(ix *definitions.Index, rel string, off int) (*Target, bool) {
	f := ix.File(rel)
	if f == nil {
		return nil, false
	}
	start, end := WordAt(f.Src, off)
	if start == end {
		return nil, false
	}
	word := string(f.Src[start:end])
	isDefinition := ix.Definition(word) != nil
	hasColumn := func(d *definitions.Definition) bool {
		return d != nil && d.Kind == definitions.KindTable && d.Table != nil && (word == "id" || d.Table.Column(word) != nil)
	}
	var named []string
	if isDefinition {
		named = append(named, word)
	}
	columnOf := func(d *definitions.Definition) {
		if hasColumn(d) {
			named = append(named, d.Name+"."+word)
		}
	}
	for _, d := range f.Definitions {
		columnOf(d)
	}
	if f.TestData != nil {
		columnOf(ix.Definition(f.TestData.Table))
	}
	for _, c := range named {
		for _, p := range ix.Places(c) {
			if p.Path == rel && p.Span.Start <= off && off <= p.Span.End && p.Span.End > p.Span.Start {
				return &Target{Name: c, Path: rel, Span: p.Span, Plain: true}, true
			}
		}
	}
	// The candidates in order (the definition, then each table with the
	// column): the first site found, or the first likely one after it.
	// Of the tables, only the first with a site and those a site here is
	// likely to name (LikelyTablesAt) can be either.
	var best *Target
	consider := func(c string) {
		for _, site := range ix.CodeSitesAt(c, rel, off) {
			if best == nil || (best.Mark != definitions.Likely && site.Mark == definitions.Likely) {
				best = &Target{Name: c, Path: rel, Span: site.Span, Mark: site.Mark}
			}
		}
	}
	if isDefinition {
		consider(word)
	}
	likely := map[string]bool{}
	for _, t := range ix.LikelyTablesAt(rel, off, word) {
		likely[t] = true
	}
	for _, d := range ix.Definitions() {
		if best != nil && (best.Mark == definitions.Likely || len(likely) == 0) {
			break
		}
		if hasColumn(d) && (best == nil || likely[d.Name]) {
			consider(d.Name + "." + word)
		}
	}
	return best, best != nil
}

// WordAt is the identifier-shaped word around off.
func WordAt(src []byte, off int) (int, int) {
	ident := definitions.IdentByte
	off = max(0, min(off, len(src)))
	start, end := off, off
	for start > 0 && ident(src[start-1]) {
		start--
	}
	for end < len(src) && ident(src[end]) {
		end++
	}
	return start, end
}

// Declaration is the span where a definition or a column is declared: a definition's
// name, a column's key.
func Declaration(ix *definitions.Index, name string) (string, definitions.Span, bool) {
	def, col, err := ix.Lookup(name)
	if err != nil || def == nil {
		return "", definitions.Span{}, false
	}
	if col != nil {
		if col.Prop == nil { // the implicit id
			return def.Path, def.NameSpan, def.NameSpan.End > def.NameSpan.Start
		}
		return def.Path, definitions.Span{Start: col.Prop.KeySpan.Start, End: col.Prop.KeySpan.End}, true
	}
	if def.NameSpan.End > def.NameSpan.Start {
		return def.Path, def.NameSpan, true
	}
	return def.Path, definitions.Span{Start: def.Stmt.Start, End: def.Stmt.Start}, true
}

// Describe is a definition's or a column's hover text (Markdown).
func Describe(ix *definitions.Index, name string) string {
	def, col, err := ix.Lookup(name)
	if err != nil {
		return name
	}
	places := len(ix.Places(name))
	sites := ix.CodeSiteCount(name)
	var b strings.Builder
	if col != nil {
		c := col.Schema
		fmt.Fprintf(&b, "**column %s** `%s`", name, ColumnType(c))
		var facts []string
		if c.Optional {
			facts = append(facts, "optional")
		}
		if c.Private {
			facts = append(facts, "private")
		}
		if c.Unique {
			facts = append(facts, "unique")
		}
		if c.Default != nil {
			facts = append(facts, fmt.Sprintf("default %v", jsonText(c.Default)))
		}
		if len(c.Was) > 0 {
			facts = append(facts, "was: "+strings.Join(c.Was, ", "))
		}
		if len(facts) > 0 {
			b.WriteString("\n\n" + strings.Join(facts, " · "))
		}
	} else {
		fmt.Fprintf(&b, "**%s %s** (%s)", def.Kind, def.Name, def.Path)
		switch {
		case def.Table != nil:
			fmt.Fprintf(&b, "\n\n%d columns", len(def.Table.Columns))
			if def.Table.Schema != nil && len(def.Table.Schema.Was) > 0 {
				b.WriteString(" · was: " + strings.Join(def.Table.Schema.Was, ", "))
			}
		case def.Flow != nil:
			var steps []string
			for _, st := range def.Flow.Steps {
				steps = append(steps, st.Name)
			}
			fmt.Fprintf(&b, "\n\nsteps: %s", strings.Join(steps, " → "))
		case def.Screen != nil:
			fmt.Fprintf(&b, "\n\npath %s", def.Screen.Path)
		}
	}
	fmt.Fprintf(&b, "\n\nnamed in %d places, %d code sites", places, sites)
	return b.String()
}

// ColumnType writes a column's type as its builder: ref('users'),
// choice(new | paid), text.
func ColumnType(c *schema.Column) string {
	switch {
	case c.Ref != "":
		return fmt.Sprintf("ref('%s')", c.Ref)
	case len(c.Choices) > 0:
		return fmt.Sprintf("%s(%s)", c.Type, strings.Join(c.Choices, " | "))
	}
	return string(c.Type)
}

func jsonText(v any) string {
	if s, ok := v.(string); ok {
		return "'" + s + "'"
	}
	return fmt.Sprint(v)
}

// Symbol is a definition or a column that a symbol search found.
type Symbol struct {
	Name      string // "orders", "orders.buyer"
	Container string // a column's table; "" for a definition
	Kind      definitions.Kind
	Column    bool
	Path      string
	Span      definitions.Span // its name's
}

// Symbols finds the definitions and columns whose names hold the query's
// letters in order (any case), best first (an exact name, a prefix, the
// column part, a substring, then by the span the letters cover), at most
// limit of them.
func Symbols(ix *definitions.Index, query string, limit int) []Symbol {
	type hit struct {
		sym   Symbol
		score int
	}
	var hits []hit
	add := func(s Symbol) {
		if score, ok := fuzzy(query, s.Name); ok {
			hits = append(hits, hit{s, score})
		}
	}
	for _, d := range ix.Definitions() {
		if d.Kind == definitions.KindProject || d.Kind == definitions.KindEngine {
			continue
		}
		add(Symbol{Name: d.Name, Kind: d.Kind, Path: d.Path, Span: d.NameSpan})
		if d.Table != nil {
			for _, c := range d.Table.Columns {
				if c.Prop != nil {
					add(Symbol{Name: d.Name + "." + c.Schema.Name, Container: d.Name, Kind: d.Kind, Column: true, Path: d.Path,
						Span: definitions.Span{Start: c.Prop.KeySpan.Start, End: c.Prop.KeySpan.End}})
				}
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score < hits[j].score
		}
		return hits[i].sym.Name < hits[j].sym.Name
	})
	out := []Symbol{}
	for i, h := range hits {
		if i == limit {
			break
		}
		out = append(out, h.sym)
	}
	return out
}

// fuzzy matches a query's letters in order (any case) in name; the score
// is lower for better matches: an exact name, a prefix, a match in the
// column part, then by the span the letters cover.
func fuzzy(query, name string) (int, bool) {
	if query == "" {
		return 1000, true
	}
	q, n := strings.ToLower(query), strings.ToLower(name)
	switch {
	case n == q:
		return 0, true
	case strings.HasPrefix(n, q):
		return 1, true
	case strings.HasSuffix(n, "."+q):
		return 2, true
	case strings.Contains(n, q):
		return 3, true
	}
	first, i := -1, 0
	for j := 0; j < len(n) && i < len(q); j++ {
		if n[j] == q[i] {
			if first < 0 {
				first = j
			}
			i++
			if i == len(q) {
				return 10 + j - first, true
			}
		}
	}
	return 0, false
}

// RenameTarget is what a rename at off of the file rel would rename: a
// plain place of a definition or a column, in a file the tools may write
// (w's resolver). Anything else is T9122, saying why.
func (w *Workspace) RenameTarget(ix *definitions.Index, rel string, off int) (*Target, error) {
	if _, err := w.Resolve(rel, true); err != nil {
		return nil, diag.Errorf(diag.T9122, "%s cannot be renamed in: %s", rel, strings.TrimPrefix(err.Error(), diag.T9105+": ")).With("path", rel)
	}
	var f *definitions.File
	if ix != nil {
		f = ix.File(rel)
	}
	if f == nil {
		return nil, diag.Errorf(diag.T9122, "%s is not a file of the project's index", rel).With("path", rel)
	}
	t, ok := TargetAt(ix, rel, off)
	if !ok {
		start, end := WordAt(f.Src, off)
		if word := string(f.Src[start:end]); word != "" {
			return nil, diag.Errorf(diag.T9122, "`%s` here is not the name of a definition or a column", word).With("path", rel)
		}
		return nil, diag.Errorf(diag.T9122, "nothing to rename here: not the name of a definition or a column").With("path", rel)
	}
	if !t.Plain {
		return nil, diag.Errorf(diag.T9122, "`%s` here is a code site (%s) that may name %s, not a place that names it for certain; rename it at its declaration",
			f.Src[t.Span.Start:t.Span.End], t.Mark, t.Name).With("path", rel).With("name", t.Name)
	}
	return t, nil
}

// Hover is what a hover at off of the file rel says (Markdown): the
// definition or column named there (Describe), then each finding of
// findings whose span holds off, with its fix's title; and the span of
// the name, where there is one. "" where there is nothing to say.
func Hover(ix *definitions.Index, rel string, off int, findings []diag.Finding) (string, *definitions.Span) {
	var parts []string
	var span *definitions.Span
	if t, ok := TargetAt(ix, rel, off); ok {
		parts = append(parts, Describe(ix, t.Name))
		span = &t.Span
	}
	for _, f := range findings {
		if f.Path != rel || off < f.Start || off > max(f.End, f.Start) {
			continue
		}
		text := fmt.Sprintf("**%s** %s", f.Code, f.Message)
		if f.Fix != nil {
			text += "\n\nfix: " + f.Fix.Title
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, "\n\n---\n\n"), span
}
