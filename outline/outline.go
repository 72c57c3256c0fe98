// Package outline makes the map of a project (docs/pages/map.md): each file
// with its definitions, a table with its columns, a function with its
// input, what it sends and what it calls, a flow with its steps, a screen
// with its path. Map marshals to the JSON of docs/pages/map.md; Text renders it
// for a model, folded to a budget on a large project.
//
// It only reads the index: it imports definitions and schema, nothing that
// writes.
package outline

import (
	"path"
	"runtime"
	"sort"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/tent-tools/tent-tools/definitions"
)

// Map is the outline of a whole project, files in path order.
type Map struct {
	Files []FileOutline `json:"files"`
	// Fold is set on a folded map (Bounded): what it leaves out.
	Fold *Fold `json:"fold,omitempty"`
}

// Fold says what a folded map leaves out: it shows Shown of the project's
// Total definitions, counts the files it shows nothing of per folder in
// Hidden, and Rest says how to ask for the rest.
type Fold struct {
	Shown  int      `json:"shown"`
	Total  int      `json:"total"`
	Hidden []Hidden `json:"hidden"`
	Rest   string   `json:"rest"`
}

// Hidden counts the files of one folder a folded map shows nothing of.
type Hidden struct {
	Folder      string `json:"folder"`
	Files       int    `json:"files"`
	Definitions int    `json:"definitions"`
}

// FileOutline is one file with its definitions in the order they stand.
// More counts, on a folded map, the file's definitions it leaves out.
type FileOutline struct {
	Path        string       `json:"path"`
	Definitions []Definition `json:"definitions"`
	More        int          `json:"more,omitempty"`
}

// Under is the map of the files at or under p (a file's path or a folder,
// slash-separated, relative to the project); "" or "." is the whole map.
func (m *Map) Under(p string) *Map {
	p = strings.Trim(path.Clean("/"+p), "/")
	if p == "" {
		return m
	}
	out := &Map{Files: []FileOutline{}}
	for _, f := range m.Files {
		if f.Path == p || strings.HasPrefix(f.Path, p+"/") {
			out.Files = append(out.Files, f)
		}
	}
	return out
}

// Definition is one definition as the map shows it. Columns is set for a
// table, Input, Sends and Calls for a function (Input and Sends for a flow),
// Steps for a flow, Path for a screen. The fields that docs/pages/map.md gives a
// kind are non-nil for that kind, so JSON writes them as arrays even when
// empty (omitzero), and nil for the other kinds, which leave them out.
type Definition struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Line    int      `json:"line"`
	Columns []Column `json:"columns,omitzero"`
	Steps   []string `json:"steps,omitzero"`
	Path    string   `json:"path,omitempty"`
	Sends   []string `json:"sends,omitzero"`
	Calls   []string `json:"calls,omitzero"`

	// Fields beyond docs/pages/map.md.
	Input []Column `json:"input,omitempty"`
	// Refs counts the places that name the definition, other than its own
	// name: plain places, and code sites marked likely. The text keeps the
	// most referenced definitions when it folds.
	Refs int `json:"refs"`
	// Was and Removed are a table's earlier names and the columns it
	// removed on purpose (for project: the tables removed on purpose).
	Was     []string `json:"was,omitempty"`
	Removed []string `json:"removed,omitempty"`
	// Rows counts the rows of a table's test data (nil where it has none).
	Rows *int `json:"rows,omitempty"`
	// Title is a screen's title.
	Title string `json:"title,omitempty"`
	// Users is the users table that project.ts names.
	Users string `json:"users,omitempty"`
	// MailFrom and HTTPAllow are what engine.ts lets out.
	MailFrom  string   `json:"mailFrom,omitempty"`
	HTTPAllow []string `json:"httpAllow,omitempty"`
}

// Column is a table's column or a function's input field. Was is never nil
// in a built Map, so JSON writes it as an array.
type Column struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Ref      string   `json:"ref,omitempty"`
	Optional bool     `json:"optional"`
	Private  bool     `json:"private"`
	Was      []string `json:"was"`
	Choices  []string `json:"choices,omitempty"`
	Unique   bool     `json:"unique,omitempty"`
	Default  any      `json:"default,omitempty"`
}

// Build makes the map of the index's project. Files without definitions
// are left out, except code files (lib helpers), which are listed with none
// so a reader knows they are there; test data shows as a table's row count.
func Build(ix *definitions.Index) *Map {
	rows := map[string]int{}
	for _, f := range ix.Files() {
		if f.TestData != nil {
			rows[f.TestData.Table] = len(f.TestData.Rows)
		}
	}
	var code []*definitions.File
	for _, f := range ix.Files() {
		if f.Lang != definitions.LangJSON {
			code = append(code, f)
		}
	}
	// The index is safe for concurrent use, and counting a definition's
	// places is most of the work, so files are outlined in parallel.
	m := &Map{Files: make([]FileOutline, len(code))}
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, f := range code {
		g.Go(func() error {
			fo := FileOutline{Path: f.Path, Definitions: make([]Definition, len(f.Definitions))}
			for j, d := range f.Definitions {
				fo.Definitions[j] = outlineOf(ix, f, d, rows)
			}
			m.Files[i] = fo
			return nil
		})
	}
	_ = g.Wait() // outlining returns no errors
	return m
}

// outlineOf makes one definition's outline.
func outlineOf(ix *definitions.Index, f *definitions.File, d *definitions.Definition, rows map[string]int) Definition {
	line, _ := f.Pos(d.Stmt.Start)
	if d.NameSpan != (definitions.Span{}) {
		line, _ = f.Pos(d.NameSpan.Start)
	}
	o := Definition{Name: d.Name, Kind: string(d.Kind), Line: line}
	switch {
	case d.Table != nil:
		o.Columns = nonNil(columnsOf(d.Table.Columns))
		o.Was = names(d.Table.Was)
		o.Removed = names(d.Table.Removed)
		if n, ok := rows[d.Name]; ok {
			o.Rows = &n
		}
	case d.Fn != nil:
		o.Input = columnsOf(d.Fn.Input)
		o.Sends = sendsOf(ix, d)
		o.Calls = nonNil(ix.Calls(d.Name))
	case d.Flow != nil:
		o.Input = columnsOf(d.Flow.Input)
		o.Steps = nonNil(names(d.Flow.Steps))
		o.Sends = sendsOf(ix, d)
	case d.Screen != nil:
		o.Path = d.Screen.Path
		o.Title = d.Screen.Title
	case d.Project != nil:
		// The project's own name says more than the index's fixed one.
		o.Name = d.Project.Name
		o.Users = d.Project.Users.Name
		o.Removed = names(d.Project.Removed)
	case d.Engine != nil:
		if o.Name == "" {
			o.Name = "engine"
		}
		o.MailFrom = d.Engine.MailFrom
		o.HTTPAllow = d.Engine.HTTPAllow
	}
	if d.Kind != definitions.KindProject && d.Kind != definitions.KindEngine {
		// What names it besides its own name: plain places and likely
		// code sites (ctx.db.orders, ctx.call('placeOrder')). Maybe-sites
		// are left out: a common word would count every comment that
		// happens to use it.
		o.Refs = ix.References(d.Name)
	}
	return o
}

// sendsOf is what a definition sends, declared or inferred, sorted.
func sendsOf(ix *definitions.Index, d *definitions.Definition) []string {
	declared, inferred := ix.Sends(d.Name)
	set := map[string]bool{}
	for _, s := range declared {
		set[s] = true
	}
	for _, s := range inferred {
		set[s] = true
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func columnsOf(cols []*definitions.Column) []Column {
	var out []Column
	for _, c := range cols {
		s := c.Schema
		if s == nil {
			continue
		}
		col := Column{
			Name:     s.Name,
			Type:     string(s.Type),
			Ref:      s.Ref,
			Optional: s.Optional,
			Private:  s.Private,
			Was:      append([]string{}, s.Was...),
			Choices:  s.Choices,
			Unique:   s.Unique,
			Default:  s.Default,
		}
		if out == nil {
			out = make([]Column, 0, len(cols)) // one allocation, not one per doubling
		}
		out = append(out, col)
	}
	return out
}

func names(refs []definitions.NameRef) []string {
	if len(refs) == 0 {
		return nil
	}
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Name
	}
	return out
}

// nonNil turns nil into an empty slice, which JSON writes as [].
func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}
