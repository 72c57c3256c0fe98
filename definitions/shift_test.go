package definitions_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/rename"
)

// shiftProjects are the projects the derivation is held to a parse on:
// the sample projects and two generated ones.
func shiftProjects(t *testing.T) []namedIndex {
	t.Helper()
	ctx := context.Background()
	out := map[string]*definitions.Index{}
	dirs, err := filepath.Glob("../testdata/projects/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		ix, err := definitions.Build(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(dir)] = ix
	}
	for _, tables := range []int{40, 120} {
		dir := t.TempDir()
		if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: tables, Seed: int64(tables)})); err != nil {
			t.Fatal(err)
		}
		ix, err := definitions.Build(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("generated-%d", tables)] = ix
	}
	var list []namedIndex
	for _, name := range slices.Sorted(maps.Keys(out)) {
		list = append(list, namedIndex{name, out[name]})
	}
	return list
}

// namedIndex is one project of the derivation's tests.
type namedIndex struct {
	name string
	ix   *definitions.Index
}

// parsed reads a file's new text as the index does.
func parsed(p string, src []byte) *definitions.File {
	return definitions.FromFiles(context.Background(), map[string][]byte{p: src}).File(p)
}

// derivedMatches holds one derivation to the parse of its text: where
// RenamedDefinitions derives, its definitions are the parse's and the
// text reads without a syntax error. It reports whether it derived.
func derivedMatches(t *testing.T, what string, old *definitions.File, src []byte, edits []definitions.TextEdit) bool {
	t.Helper()
	defs, ok := old.RenamedDefinitions(src, edits)
	stmts, sok := old.RenamedStatements(src, edits)
	if sok != ok {
		t.Errorf("%s: %s: RenamedStatements derives %v, RenamedDefinitions %v", what, old.Path, sok, ok)
	}
	if !ok {
		return false
	}
	f := parsed(old.Path, src)
	// RenamedStatements: the parse's definitions, those that no edit lies
	// in as their statements alone.
	for i, d := range stmts {
		if i >= len(f.Definitions) {
			t.Errorf("%s: %s: RenamedStatements answers %d definitions, the parse %d", what, old.Path, len(stmts), len(f.Definitions))
			break
		}
		want := f.Definitions[i]
		switch {
		case d == old.Definitions[i]:
			// shared: unmoved
		case !slices.ContainsFunc(edits, func(e definitions.TextEdit) bool {
			return e.Start < old.Definitions[i].Stmt.End && e.End > old.Definitions[i].Stmt.Start
		}):
			want = &definitions.Definition{Name: want.Name, Kind: want.Kind, Builder: want.Builder, Path: want.Path, Stmt: want.Stmt, NameSpan: want.NameSpan}
		default:
			w := *want
			w.Fn, w.Flow, w.Screen, w.Project, w.Engine = nil, nil, nil, nil, nil
			want = &w
		}
		if !reflect.DeepEqual(d, want) {
			t.Errorf("%s: %s: statement %d derived\n%s\nwant\n%s", what, old.Path, i, dump(d), dump(want))
			break
		}
	}
	for _, fd := range f.Findings {
		if strings.HasPrefix(fd.Code, "T1") {
			t.Errorf("%s: %s derived, but its new text has %s: %s", what, old.Path, fd.Code, fd.Message)
		}
	}
	if !reflect.DeepEqual(defs, f.Definitions) {
		for i := range max(len(defs), len(f.Definitions)) {
			if i >= len(defs) || i >= len(f.Definitions) || !reflect.DeepEqual(defs[i], f.Definitions[i]) {
				var d, p any
				if i < len(defs) {
					d = defs[i]
				}
				if i < len(f.Definitions) {
					p = f.Definitions[i]
				}
				t.Errorf("%s: %s: definition %d derived\n%s\nparsed\n%s", what, old.Path, i, dump(d), dump(p))
				break
			}
		}
	}
	return true
}

// dump writes a definition for a failure's message.
func dump(v any) string {
	if d, ok := v.(*definitions.Definition); ok && d != nil {
		return fmt.Sprintf("%+v\narg %s", *d, dumpValue(d.Arg))
	}
	return fmt.Sprintf("%+v", v)
}

func dumpValue(v *definitions.Value) string {
	if v == nil {
		return "nil"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "{%d %v %q", v.Kind, v.Span, v.Str)
	for _, it := range v.Items {
		b.WriteString(" " + dumpValue(it))
	}
	for _, p := range v.Props {
		fmt.Fprintf(&b, " %q@%v/%v:%s", p.Key, p.KeySpan, p.Span, dumpValue(p.Value))
	}
	return b.String() + "}"
}

// TestRenamedDefinitionsAreAParse: for every definition and column of the
// sample and generated projects renamed to names of several kinds, each
// changed file whose definitions RenamedDefinitions derives has exactly
// the definitions a parse of its new text reads, and no syntax error.
// Most files of a rename are derived (the test fails where none are, or
// none with a name replaced inside a definition's field tree).
func TestRenamedDefinitionsAreAParse(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 1))
	names := []string{"members", "zz_new", "Ledger2", "members", "zz_new", "Ledger2", "type", "async", "string", "undefined", "of", "x"}
	derived, inside, files := 0, 0, 0
	for _, p := range shiftProjects(t) {
		name, ix := p.name, p.ix
		var targets []string
		for _, d := range ix.Definitions() {
			if d.Name == "" || d.Kind == definitions.KindProject || d.Kind == definitions.KindEngine {
				continue
			}
			targets = append(targets, d.Name)
			if d.Table != nil {
				for _, c := range d.Table.Columns {
					if c.Schema.Name != "id" {
						targets = append(targets, d.Name+"."+c.Schema.Name)
					}
				}
			}
		}
		slices.Sort(targets)
		if len(targets) > 80 {
			rng.Shuffle(len(targets), func(i, j int) { targets[i], targets[j] = targets[j], targets[i] })
			targets = targets[:80]
		}
		if strings.HasPrefix(name, "generated") {
			// The hub, to the name that some files import it as already.
			targets = append(targets, "accounts")
		}
		for k, target := range targets {
			to := names[rng.IntN(len(names))]
			if k == len(targets)-1 && target == "accounts" {
				to = "members"
			}
			s, err := rename.Plan(context.Background(), ix, target, to)
			if err != nil {
				continue // refused: nothing to derive
			}
			for _, fe := range s.Files {
				old := ix.File(fe.Path)
				if fe.New || old == nil || fe.To != "" {
					continue
				}
				src, err := fe.Result()
				if err != nil {
					t.Fatal(err)
				}
				edits := make([]definitions.TextEdit, len(fe.Edits))
				for i, e := range fe.Edits {
					edits[i] = definitions.TextEdit{Start: e.Start, End: e.End, Text: e.Text}
				}
				files++
				ok := derivedMatches(t, fmt.Sprintf("%s: rename %s to %s", name, target, to), old, src, edits)
				if ok {
					derived++
					if inDefinition(old, edits) {
						inside++
					}
				}
				// A table renamed to a plain name in a generated project:
				// every file but its own derives (the hub's case).
				def, col, _ := ix.Lookup(target)
				if !ok && strings.HasPrefix(name, "generated") && col == nil && def.Kind == definitions.KindTable &&
					plainNames[to] && fe.Path != def.Path && old.Lang != definitions.LangJSON {
					t.Errorf("%s: rename %s to %s: %s is not derived", name, target, to, fe.Path)
				}
			}
		}
	}
	t.Logf("%d of %d renamed files derived, %d with a name replaced in a definition", derived, files, inside)
	if derived < 100 || inside < 20 {
		t.Fatalf("%d of %d renamed files derived, %d with a name replaced in a definition: the derivation is not tried", derived, files, inside)
	}
}

// plainNames are the names of the rename test that derive wherever the
// name is not written already.
var plainNames = map[string]bool{"members": true, "zz_new": true, "Ledger2": true}

// inDefinition reports whether an edit falls inside a definition's
// statement.
func inDefinition(f *definitions.File, edits []definitions.TextEdit) bool {
	for _, d := range f.Definitions {
		for _, e := range edits {
			if e.Start >= d.Stmt.Start && e.End <= d.Stmt.End {
				return true
			}
		}
	}
	return false
}

// TestRandomNameEditsDeriveAsParsed replaces random names of every file of
// the projects (references, imports, definitions' names, keys, strings
// of the field trees, words of the text) with random names, and holds
// each derivation to the parse of the new text.
func TestRandomNameEditsDeriveAsParsed(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 2))
	pool := []string{"alpha", "beta_2", "Gamma", "alpha", "beta_2", "Gamma", "type", "of", "async", "get", "undefined", "table", "ref", "text", "x"}
	derived, tried := 0, 0
	for _, p := range shiftProjects(t) {
		name, ix := p.name, p.ix
		for _, f := range ix.Files() {
			if f.Lang == definitions.LangJSON {
				continue
			}
			names, words := nameSpans(f), wordSpans(f)
			for round := 0; round < 8; round++ {
				// Half the rounds replace names the index knows; the
				// others any word (in comments, strings, regular
				// expressions, ...), which must derive as parsed or not.
				spans := names
				if round%2 == 1 {
					spans = words
				}
				if len(spans) == 0 {
					continue
				}
				// A few words, each replaced wherever a span holds it (as a
				// rename replaces a name), each by one new name.
				to := map[string]string{}
				for range 1 + rng.IntN(3) {
					sp := spans[rng.IntN(len(spans))]
					to[string(f.Src[sp.Start:sp.End])] = pool[rng.IntN(len(pool))]
				}
				picked := map[definitions.Span]bool{}
				var edits []definitions.TextEdit
				for _, sp := range spans {
					if n, ok := to[string(f.Src[sp.Start:sp.End])]; ok && !picked[sp] {
						picked[sp] = true
						edits = append(edits, definitions.TextEdit{Start: sp.Start, End: sp.End, Text: n})
					}
				}
				slices.SortFunc(edits, func(a, b definitions.TextEdit) int { return a.Start - b.Start })
				var src []byte
				last := 0
				overlap := false
				for _, e := range edits {
					if e.Start < last {
						overlap = true
						break
					}
					src = append(src, f.Src[last:e.Start]...)
					src = append(src, e.Text...)
					last = e.End
				}
				if overlap {
					continue
				}
				src = append(src, f.Src[last:]...)
				ok := derivedMatches(t, name+": random names", f, src, edits)
				if round%2 == 0 {
					tried++
					if ok {
						derived++
					}
				}
			}
		}
	}
	t.Logf("%d of %d random edits of names derived", derived, tried)
	if derived < 100 {
		t.Fatalf("%d of %d random edits of names derived: the derivation is not tried", derived, tried)
	}
}

// nameSpans lists the spans of a file where a name stands: references,
// imports, definitions' names, keys and strings of the field trees, and
// every word of the text that is a name.
func nameSpans(f *definitions.File) []definitions.Span {
	var out []definitions.Span
	for _, r := range f.IdentRefs() {
		out = append(out, r.Span)
	}
	for _, imp := range f.Imports {
		out = append(out, imp.ImportedSpan, imp.LocalSpan)
	}
	var walk func(v *definitions.Value)
	walk = func(v *definitions.Value) {
		if v == nil {
			return
		}
		if v.Kind == definitions.ValString && definitions.Identifier(v.Str) {
			out = append(out, definitions.Span{Start: v.Span.Start + 1, End: v.Span.End - 1})
		}
		for _, it := range v.Items {
			walk(it)
		}
		for _, p := range v.Props {
			if definitions.Identifier(p.Key) {
				sp := p.KeySpan
				if sp.End-sp.Start != len(p.Key) {
					sp = definitions.Span{Start: sp.Start + 1, End: sp.End - 1}
				}
				out = append(out, sp)
			}
			walk(p.Value)
		}
	}
	for _, d := range f.Definitions {
		if d.NameSpan.End > d.NameSpan.Start {
			out = append(out, d.NameSpan)
		}
		walk(d.Arg)
	}
	return out
}

// wordSpans lists every word of a file's text that is a name: in code,
// comments and strings alike.
func wordSpans(f *definitions.File) []definitions.Span {
	var out []definitions.Span
	for i := 0; i < len(f.Src); {
		if !definitions.IdentByte(f.Src[i]) {
			i++
			continue
		}
		j := i
		for j < len(f.Src) && definitions.IdentByte(f.Src[j]) {
			j++
		}
		if definitions.Identifier(f.Src[i:j]) && (i == 0 || f.Src[i-1] != '\\') {
			out = append(out, definitions.Span{Start: i, End: j})
		}
		i = j
	}
	return out
}
