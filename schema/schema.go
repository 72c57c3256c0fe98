// Package schema holds what the tent format says about tables: the column
// types, a column's options, and whether a JSON value fits a column. It is
// shared by the index (which reads tables), the check (which checks test
// data) and the runner (which checks values written through ctx.db). It
// imports nothing of the project's own.
package schema

// Type is a column type of docs/pages/format.md §2.1.
type Type string

// The column types.
const (
	Text   Type = "text"
	Int    Type = "int"
	Num    Type = "num"
	Money  Type = "money"
	Bool   Type = "bool"
	Time   Type = "time"
	JSON   Type = "json"
	Ref    Type = "ref"
	Choice Type = "choice"
)

// Types lists every column type, in the order the docs give them.
var Types = []Type{Text, Int, Num, Money, Bool, Time, JSON, Ref, Choice}

// IsType reports whether name is a column builder of 'tent'.
func IsType(name string) bool {
	for _, t := range Types {
		if string(t) == name {
			return true
		}
	}
	return false
}

// Column is what a column (or a function's input field) declares, read
// statically from its builder call.
type Column struct {
	Name     string
	Type     Type
	Ref      string   // the target table, for Ref
	Choices  []string // the allowed strings, for Choice
	Optional bool
	Private  bool
	Unique   bool
	// Default is the default value as JSON (nil where none is given).
	Default any
	// Was lists earlier names, oldest first.
	Was []string
}

// Table is a table's schema: its columns (without the implicit id) in
// declaration order, its earlier names and the columns removed on purpose.
type Table struct {
	Name    string
	Columns []*Column
	Indexes [][]string
	Was     []string
	Removed []string
}

// Column returns the column named name, or nil. The implicit id column is
// not returned.
func (t *Table) Column(name string) *Column {
	for _, c := range t.Columns {
		if c.Name == name {
			return c
		}
	}
	return nil
}
