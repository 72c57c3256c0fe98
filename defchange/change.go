// Package defchange computes what a change did to a project's definitions:
// for each definition (and each column of a table) added, removed, renamed
// or changed, the field paths that changed (`columns.buyer.type`, `steps`,
// `run`) with their old and new text. The change pipeline of package workspace
// judges these lists by the agent's policy and keeps them with each point;
// compare and changedBy read them back and compose them (Compose), so that
// no old version of a file is ever parsed again.
//
// The package is pure: it reads *definitions.File values and writes
// nothing. It imports definitions only.
package defchange

import "github.com/tent-tools/tent-tools/definitions"

// Action is what a change did to a definition, a column or a file, as a
// policy's change rule names it (the ACTION of ACTION:KIND).
type Action string

// The actions of a change.
const (
	Add    Action = "add"
	Change Action = "change"
	Rename Action = "rename"
	Remove Action = "remove"
)

// Kind is what a change acts on, as a policy's change rule names it (the
// KIND of ACTION:KIND): a definition's kind (KindOf), a column or a file.
type Kind string

// The kinds a change acts on: the definition kinds of package definitions
// (table, fn, flow, screen, project, engine, unknown), a column, a file.
const (
	KindTable   = Kind(definitions.KindTable)
	KindFn      = Kind(definitions.KindFn)
	KindFlow    = Kind(definitions.KindFlow)
	KindScreen  = Kind(definitions.KindScreen)
	KindProject = Kind(definitions.KindProject)
	KindEngine  = Kind(definitions.KindEngine)
	KindColumn  = Kind("column")
	KindFile    = Kind("file")
)

// KindOf is the Kind of a change of a definition of the kind k.
func KindOf(k definitions.Kind) Kind { return Kind(k) }

// DefChange is one definition, column or file that a change added,
// removed, renamed or changed.
//
// Definition names it as it was before the change: "orders" for a
// definition, "orders.buyer" for a column, "project" and "engine" for
// those two, and the path for a file. A rename's new name is To (for a
// column "orders.customer", for a file its new path).
type DefChange struct {
	Definition string  `json:"definition"`
	Kind       Kind    `json:"kind"`
	Action     Action  `json:"action"`
	To         string  `json:"to,omitempty"`
	Fields     []Field `json:"fields"`
}

// Name is the definition's name after the change: To for a rename, else
// Definition.
func (c DefChange) Name() string {
	if c.To != "" {
		return c.To
	}
	return c.Definition
}

// Field is one field of a definition that changed: its path in the
// definition's argument (`columns.buyer.type`, `steps`, `may.read`; for a
// column record, relative to the column: `type`, `private`), and its text
// before and after ("" where it was not there, or is gone).
//
// Declarative values are written in one canonical form (strings in single
// quotes, lists as `['a', 'b']`), so that reformatting a file changes no
// field; code (`run`, `may`, `view`) is its source text.
type Field struct {
	Path string `json:"path"`
	Old  string `json:"old"`
	New  string `json:"new"`
}
