// Package model is the app as data for a visual editor (tent/model, the
// `model` tool; docs/pages/change.md): the tables with their columns,
// indexes, earlier and removed names and test data rows; the functions
// with their input, what they send and call and the tables they read and
// write; the flows with their steps; the screens with their routes and
// the tables they load; the findings' counts; and where each stands in
// the current text, as LSP ranges. It is computed from an index snapshot
// alone (the test data is indexed too), pure: it reads no file and
// writes none. Imports `definitions`, `schema`.
package model

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/schema"
)

// Model is the answer of tent/model. Every list is present ([] where
// empty), so that a client never tells null from empty.
type Model struct {
	Version   int        `json:"version"`
	Project   *Project   `json:"project"`
	Tables    []Table    `json:"tables"`
	Functions []Function `json:"functions"`
	Flows     []Flow     `json:"flows"`
	Screens   []Screen   `json:"screens"`
	Findings  Counts     `json:"findings"`
	// More, in an agent's answer (the model tool over MCP), says what
	// the lists left out beyond their budgets and how to ask for it.
	More []diag.More `json:"more,omitempty"`
}

// Project is what project.ts declares; nil in a model of a folder
// without one.
type Project struct {
	Name    string   `json:"name"`
	Users   string   `json:"users"`
	Removed []string `json:"removed"`
	Path    string   `json:"path"`
	Range   Range    `json:"range"`
}

// Table is one table.
type Table struct {
	Name      string     `json:"name"`
	Path      string     `json:"path"`
	Range     Range      `json:"range"`     // the whole `export const ... = table({...})`
	NameRange Range      `json:"nameRange"` // its name
	Columns   []Column   `json:"columns"`
	Indexes   [][]string `json:"indexes"`
	Removed   []string   `json:"removed"`
	Was       []string   `json:"was"`
	Rows      int        `json:"rows"` // the rows of testdata/NAME.json
}

// Column is one column of a table. Ref, Values and Default are null
// where the column has none.
type Column struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Ref      *string  `json:"ref"`
	Values   []string `json:"values"`
	Optional bool     `json:"optional"`
	Private  bool     `json:"private"`
	Unique   bool     `json:"unique"`
	Default  any      `json:"default"`
	Was      []string `json:"was"`
	Range    Range    `json:"range"` // the whole `name: builder(...)`
}

// Field is one input field of a function or a flow.
type Field struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Ref      *string  `json:"ref"`
	Values   []string `json:"values"`
	Optional bool     `json:"optional"`
	Default  any      `json:"default"`
}

// Function is one fn.
type Function struct {
	Name      string   `json:"name"`
	Path      string   `json:"path"`
	Range     Range    `json:"range"`
	NameRange Range    `json:"nameRange"`
	Input     []Field  `json:"input"`
	Sends     []string `json:"sends"`  // declared and inferred, sorted
	Calls     []string `json:"calls"`  // ctx.call targets, sorted
	Reads     []string `json:"reads"`  // tables its code reads (all, where, get), sorted
	Writes    []string `json:"writes"` // tables its code writes (insert, update, remove), sorted
}

// Flow is one flow.
type Flow struct {
	Name      string   `json:"name"`
	Path      string   `json:"path"`
	Range     Range    `json:"range"`
	NameRange Range    `json:"nameRange"`
	Input     []Field  `json:"input"`
	Steps     []string `json:"steps"`
	Sends     []string `json:"sends"`
}

// Screen is one screen.
type Screen struct {
	Name      string   `json:"name"`
	Path      string   `json:"path"`
	Range     Range    `json:"range"`
	NameRange Range    `json:"nameRange"`
	Route     string   `json:"route"`
	Title     string   `json:"title"`
	Loads     []string `json:"loads"` // tables its code reads, sorted
}

// Counts are the findings of the check, by severity.
type Counts struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

// Position is an LSP position: a 0-based line and a 0-based character
// offset in the line, counted in the encoding's units.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is an LSP range.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Encoding is how a Position counts characters.
type Encoding int

// The position encodings of LSP 3.17.
const (
	UTF16 Encoding = iota // UTF-16 code units, LSP's default
	UTF8                  // bytes
)

// Options are what a model is made with besides the index.
type Options struct {
	Version  int
	Findings Counts
	Encoding Encoding
}

// Build makes the model of ix.
func Build(ix *definitions.Index, opts Options) *Model {
	m := &Model{
		Version:   opts.Version,
		Tables:    []Table{},
		Functions: []Function{},
		Flows:     []Flow{},
		Screens:   []Screen{},
		Findings:  opts.Findings,
	}
	b := builder{ix: ix, enc: opts.Encoding}
	for _, f := range ix.Files() {
		if len(f.Definitions) == 0 {
			continue
		}
		b.file(f)
		for _, d := range f.Definitions {
			switch d.Kind {
			case definitions.KindTable:
				m.Tables = append(m.Tables, b.table(d))
			case definitions.KindFn:
				m.Functions = append(m.Functions, b.function(d))
			case definitions.KindFlow:
				m.Flows = append(m.Flows, b.flow(d))
			case definitions.KindScreen:
				m.Screens = append(m.Screens, b.screen(d))
			case definitions.KindProject:
				if m.Project == nil {
					m.Project = b.project(d)
				}
			}
		}
	}
	byName := func(a, c string, pa, pc string) int {
		if n := cmp.Compare(a, c); n != 0 {
			return n
		}
		return cmp.Compare(pa, pc)
	}
	slices.SortStableFunc(m.Tables, func(a, c Table) int { return byName(a.Name, c.Name, a.Path, c.Path) })
	slices.SortStableFunc(m.Functions, func(a, c Function) int { return byName(a.Name, c.Name, a.Path, c.Path) })
	slices.SortStableFunc(m.Flows, func(a, c Flow) int { return byName(a.Name, c.Name, a.Path, c.Path) })
	slices.SortStableFunc(m.Screens, func(a, c Screen) int { return byName(a.Name, c.Name, a.Path, c.Path) })
	return m
}

// builder makes the model's parts of one file at a time.
type builder struct {
	ix  *definitions.Index
	enc Encoding
	f   *definitions.File
	// reads and writes are the tables each definition of f uses.
	reads, writes map[string][]string
}

// file starts on f: what its code reads and writes, by definition.
func (b *builder) file(f *definitions.File) {
	b.f = f
	b.reads, b.writes = nil, nil
	for _, u := range f.Uses.DB {
		if u.Def == "" || u.Table == "" {
			continue
		}
		if b.reads == nil {
			b.reads, b.writes = map[string][]string{}, map[string][]string{}
		}
		switch u.Method {
		case "insert", "update", "remove":
			b.writes[u.Def] = append(b.writes[u.Def], u.Table)
		default:
			b.reads[u.Def] = append(b.reads[u.Def], u.Table)
		}
	}
}

// set sorts names and drops repeats; nil gives [].
func set(names []string) []string {
	if len(names) == 0 {
		return []string{}
	}
	out := slices.Clone(names)
	sort.Strings(out)
	return slices.Compact(out)
}

func (b *builder) table(d *definitions.Definition) Table {
	t := Table{
		Name: d.Name, Path: d.Path, Range: b.rng(d.Stmt), NameRange: b.rng(d.NameSpan),
		Columns: []Column{}, Indexes: [][]string{}, Removed: []string{}, Was: []string{},
	}
	if d.Table == nil {
		return t
	}
	dt := d.Table
	t.Columns = make([]Column, 0, len(dt.Columns))
	for _, c := range dt.Columns {
		t.Columns = append(t.Columns, b.column(c))
	}
	for _, ix := range dt.Indexes {
		t.Indexes = append(t.Indexes, names(ix))
	}
	t.Removed = names(dt.Removed)
	t.Was = names(dt.Was)
	if td := b.ix.File("testdata/" + d.Name + ".json"); td != nil && td.TestData != nil {
		t.Rows = len(td.TestData.Rows)
	}
	return t
}

func (b *builder) column(c *definitions.Column) Column {
	s := c.Schema
	col := Column{
		Name: s.Name, Type: string(s.Type), Values: choices(s),
		Optional: s.Optional, Private: s.Private, Unique: s.Unique, Default: s.Default,
		Was: nonNil(s.Was),
	}
	if s.Type == schema.Ref {
		r := s.Ref
		col.Ref = &r
	}
	if c.Prop != nil {
		col.Range = b.rng(c.Prop.Span)
	}
	return col
}

// choices are a choice column's values, nil for another type.
func choices(s *schema.Column) []string {
	if s.Type != schema.Choice {
		return nil
	}
	return nonNil(s.Choices)
}

func (b *builder) fields(cols []*definitions.Column) []Field {
	out := make([]Field, 0, len(cols))
	for _, c := range cols {
		s := c.Schema
		fl := Field{Name: s.Name, Type: string(s.Type), Values: choices(s), Optional: s.Optional, Default: s.Default}
		if s.Type == schema.Ref {
			r := s.Ref
			fl.Ref = &r
		}
		out = append(out, fl)
	}
	return out
}

func (b *builder) sends(name string) []string {
	declared, inferred := b.ix.Sends(name)
	return set(append(slices.Clone(declared), inferred...))
}

func (b *builder) function(d *definitions.Definition) Function {
	fn := Function{
		Name: d.Name, Path: d.Path, Range: b.rng(d.Stmt), NameRange: b.rng(d.NameSpan),
		Input: []Field{}, Sends: b.sends(d.Name), Calls: set(b.ix.Calls(d.Name)),
		Reads: set(b.reads[d.Name]), Writes: set(b.writes[d.Name]),
	}
	if d.Fn != nil {
		fn.Input = b.fields(d.Fn.Input)
	}
	return fn
}

func (b *builder) flow(d *definitions.Definition) Flow {
	fl := Flow{
		Name: d.Name, Path: d.Path, Range: b.rng(d.Stmt), NameRange: b.rng(d.NameSpan),
		Input: []Field{}, Steps: []string{}, Sends: b.sends(d.Name),
	}
	if d.Flow != nil {
		fl.Input = b.fields(d.Flow.Input)
		fl.Steps = names(d.Flow.Steps)
	}
	return fl
}

func (b *builder) screen(d *definitions.Definition) Screen {
	sc := Screen{
		Name: d.Name, Path: d.Path, Range: b.rng(d.Stmt), NameRange: b.rng(d.NameSpan),
		Loads: set(b.reads[d.Name]),
	}
	if d.Screen != nil {
		sc.Route, sc.Title = d.Screen.Path, d.Screen.Title
	}
	return sc
}

func (b *builder) project(d *definitions.Definition) *Project {
	p := &Project{Path: d.Path, Range: b.rng(d.Stmt), Users: "users", Removed: []string{}}
	if d.Project != nil {
		p.Name, p.Users, p.Removed = d.Project.Name, d.Project.Users.Name, names(d.Project.Removed)
	}
	return p
}

// names are the names of refs, in order; [] where none.
func names(refs []definitions.NameRef) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Name
	}
	return out
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// rng is the LSP range of a span of the current file.
func (b *builder) rng(s definitions.Span) Range {
	return Range{Start: b.pos(s.Start), End: b.pos(s.End)}
}

// pos is the LSP position of a byte offset of the current file.
func (b *builder) pos(off int) Position {
	return PositionOf(b.f, off, b.enc)
}

// PositionOf is the LSP position of a byte offset of f (clamped to it),
// in the encoding's units.
func PositionOf(f *definitions.File, off int, enc Encoding) Position {
	src := f.Src
	off = max(0, min(off, len(src)))
	lines := f.Lines()
	if len(lines) == 0 {
		lines = []int{0}
	}
	i := max(sort.Search(len(lines), func(i int) bool { return lines[i] > off })-1, 0)
	start := lines[i]
	if enc == UTF8 {
		return Position{Line: i, Character: off - start}
	}
	return Position{Line: i, Character: utf16Len(src[start:off])}
}

// utf16Len counts the UTF-16 code units of a UTF-8 text (an invalid byte
// counts one).
func utf16Len(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		if c := b[i]; c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			n++
		} else {
			n += utf16.RuneLen(r)
		}
		i += size
	}
	return n
}

// CountFindings counts findings by severity.
func CountFindings(fs []diag.Finding) Counts {
	var c Counts
	for _, f := range fs {
		switch f.Severity {
		case diag.Error:
			c.Errors++
		case diag.Warning:
			c.Warnings++
		default:
			c.Infos++
		}
	}
	return c
}

// Cache keeps the JSON of the last model made, for a server that answers
// tent/model again and again: an index snapshot never changes, so the
// same snapshot with the same options gives the same bytes, and a warm
// request costs a comparison. The zero Cache is ready; it is safe for
// concurrent use.
type Cache struct {
	mu   sync.Mutex
	ix   *definitions.Index
	opts Options
	json []byte
}

// JSON is the model of ix as JSON, made again only where the snapshot or
// the options differ from the last call's. The bytes are shared: a caller
// must not change them.
func (c *Cache) JSON(ix *definitions.Index, opts Options) ([]byte, error) {
	c.mu.Lock()
	if c.ix == ix && c.opts == opts && c.json != nil {
		out := c.json
		c.mu.Unlock()
		return out, nil
	}
	c.mu.Unlock()
	out, err := json.Marshal(Build(ix, opts))
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	c.mu.Lock()
	c.ix, c.opts, c.json = ix, opts, out
	c.mu.Unlock()
	return out, nil
}
