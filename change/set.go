// Package change holds change sets: what a refactor (rename, remove) would
// do to a project, computed without writing anything — minimal text edits
// per file, file moves, file deletions, and the code sites the refactor
// leaves for a person or an agent to look at. Building blocks here make
// the edits look hand-made (a list keeps its layout, an inserted name
// takes the file's quotes and line ends). Applying a set to disk is not
// this package's job: one place in package workspace does that (Apply).
package change

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/definitions"
)

// FileEdit is what a change set does to one existing file: edits to its
// text, and a new path where it moves.
type FileEdit struct {
	Path  string // the file's path now, relative to the project root
	To    string // its new path where it moves, "" where it stays
	Base  []byte // the text the edits apply to (the text the index read)
	Edits []Edit // sorted and valid (see Validate)
	// New marks a file the set creates: Base is empty, its text is
	// what Edits insert, and no file may stand at Path.
	New bool

	// after is the text after the edits, made once by the Builder's Set,
	// so the steps that read a planned set's texts (the rename's capture
	// check, its answer's lines, the pipeline's stage) do not apply the
	// edits each again. A FileEdit made by hand has none.
	after []byte
}

// NewPath is where the file stands after the change.
func (f *FileEdit) NewPath() string {
	if f.To != "" {
		return f.To
	}
	return f.Path
}

// Result is the file's text after its edits. The text of a file of a
// Builder's set is made once and shared: a caller must not change it.
func (f *FileEdit) Result() ([]byte, error) {
	if f.after != nil {
		return f.after, nil
	}
	if f.New {
		if err := f.validateNew(); err != nil {
			return nil, err
		}
		var out []byte
		for _, e := range f.Edits {
			out = append(out, e.Text...)
		}
		return out, nil
	}
	out, err := Apply(f.Base, f.Edits)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	return out, nil
}

// validateNew checks a new file's edits: insertions at its start, in one
// kind of line end (the new text's own).
func (f *FileEdit) validateNew() error {
	var text strings.Builder
	for _, e := range f.Edits {
		if e.Start != 0 || e.End != 0 {
			return fmt.Errorf("%s is new: its edits must insert at its start", f.Path)
		}
		text.WriteString(e.Text)
	}
	if err := validate(nil, f.Edits, EOL([]byte(text.String()))); err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	return nil
}

// Site is a code site a refactor leaves untouched and lists: where it
// stands once the change set is applied, the text of its line, why it may
// name the target and how sure that is.
type Site struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Text string `json:"text"`
	Why  string `json:"why"`
	Mark string `json:"mark"`
}

// Line is a line of a file, after the change.
type Line struct {
	Path string `json:"path"`
	Line int    `json:"line"`
}

// Action is what a change set does, as its planner names it.
type Action string

// The actions of a change set.
const (
	ActionRename Action = "rename" // rename.Plan
	ActionRemove Action = "remove" // remove.Plan, and a file's removal
	ActionMove   Action = "move"   // a file's move (the move tool)
	ActionFix    Action = "fix"    // a finding's fix (the language server)
	ActionChange Action = "change" // the editor's operations (package ops)
)

// Set is a change set. Files are sorted by Path; Deletes are sorted paths
// of files that go; Left lists the code sites (and, for a remove, the
// plain places of other definitions) that still name the target, in their
// positions after the change.
type Set struct {
	// Action is what the set does; Kind what it acts on (a table, a
	// column, a fn, a flow, a screen, a file), as a policy's change rule
	// names it; Target the name ("orders", "orders.buyer") or the path.
	Action Action
	Kind   defchange.Kind
	Target string
	// To is a rename's new name; Was the target's `was` names after the
	// rename, oldest first (empty for a kind without `was`).
	To  string
	Was []string
	// Renamed maps each definition or column the set renames on purpose,
	// by its full name before ("orders", "orders.buyer"), to its full
	// name after ("purchases", "orders.customer"): the planner's own
	// answer to what the definition diff of the change should take as a
	// rename rather than a remove and an add.
	Renamed map[string]string

	Files   []*FileEdit
	Deletes []string
	Left    []Site

	// ReadAhead holds the new texts the planner read already as the
	// index reads them, nil where it read none.
	ReadAhead *ReadAhead
}

// ReadAhead is what a planner read of a set's new texts (a rename's
// capture check reads the files where the new name stands already), kept
// so that the pipeline reads each file once: it updates Index, not From,
// with the new texts, and Index holds the files of Paths at the texts the
// set gives them. The pipeline uses it only on the index the set was
// planned on (From) and where it writes each of Paths.
type ReadAhead struct {
	From  *definitions.Index // the index the set was planned on
	Index *definitions.Index // From with the files of Paths at their new texts
	Paths []string
}

// Validate reports the first reason the set is not coherent: a file edited
// twice or both edited and deleted, two files moving to one path, a move
// onto a file that stays, or edits that do not apply.
func (s *Set) Validate() error {
	paths := map[string]bool{}
	for _, f := range s.Files {
		if paths[f.Path] {
			return fmt.Errorf("%s is changed twice", f.Path)
		}
		paths[f.Path] = true
		if f.New && (len(f.Base) > 0 || (f.To != "" && f.To != f.Path)) {
			return fmt.Errorf("%s is new: it has no text to edit nor a path to move from", f.Path)
		}
		if f.New {
			if err := f.validateNew(); err != nil {
				return err
			}
			continue
		}
		if err := Validate(f.Base, f.Edits); err != nil {
			return fmt.Errorf("%s: %w", f.Path, err)
		}
	}
	for _, d := range s.Deletes {
		if paths[d] {
			return fmt.Errorf("%s is both changed and deleted", d)
		}
	}
	targets := map[string]string{}
	for _, f := range s.Files {
		if f.To == "" || f.To == f.Path {
			continue
		}
		if prev, ok := targets[f.To]; ok {
			return fmt.Errorf("%s and %s both move to %s", prev, f.Path, f.To)
		}
		targets[f.To] = f.Path
		if paths[f.To] && !moves(s, f.To) {
			return fmt.Errorf("%s would move onto %s, which stays", f.Path, f.To)
		}
	}
	return nil
}

// moves reports whether the file at path moves away in s.
func moves(s *Set, path string) bool {
	for _, f := range s.Files {
		if f.Path == path {
			return f.To != "" && f.To != path
		}
	}
	return false
}

// Changed lists the lines the set changes, in the files' new text and
// paths: the line where each edit's new text begins. A file that only
// moves is listed with line 0 (its text is kept whole).
func (s *Set) Changed() ([]Line, error) {
	return s.lines(func(Edit) bool { return true }, true)
}

// Stated lists the lines, in the new text, where the set states a removal
// (edits marked Stated).
func (s *Set) Stated() ([]Line, error) {
	return s.lines(func(e Edit) bool { return e.Stated }, false)
}

// lines maps the start of each edit that keep accepts to its line in the
// new text, one entry per line.
func (s *Set) lines(keep func(Edit) bool, moved bool) ([]Line, error) {
	var out []Line
	for _, f := range s.Files {
		if len(f.Edits) == 0 {
			if moved && f.To != "" {
				out = append(out, Line{Path: f.NewPath()})
			}
			continue
		}
		text, err := f.Result()
		if err != nil {
			return nil, err
		}
		seen := map[int]bool{}
		for _, e := range f.Edits {
			if !keep(e) {
				continue
			}
			off, _ := MapOffset(f.Edits, e.Start)
			line, _ := Pos(text, off+leadingBreak(e.Text))
			if !seen[line] {
				seen[line] = true
				out = append(out, Line{Path: f.NewPath(), Line: line})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
	return out, nil
}

// leadingBreak is the length of the commas and line ends an inserted text
// begins with (an item appended on a new line), so that the line reported
// is the new line rather than the one before it.
func leadingBreak(text string) int {
	return len(text) - len(strings.TrimLeft(text, ",\r\n"))
}
