// Package definitions is the index of a tent project: every definition
// (docs/pages/format.md §2) with its declarative field tree and ranges, and every place
// that names a definition or a column, split into plain places and code
// sites (docs/pages/format.md §4). It reads files but never writes one.
//
// An *Index is an immutable snapshot: Update returns a new snapshot that
// shares every unchanged file with the old one, so a one-file change never
// re-indexes the others, and readers of the old snapshot are never disturbed.
package definitions

import (
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/schema"
)

// Span is a byte range [Start, End) in one file's text.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Kind is the kind of a definition.
type Kind string

// The kinds of definitions. Project and Engine are the single default
// exports of project.ts and engine.ts; they are not in the shared namespace.
const (
	KindTable   Kind = "table"
	KindFn      Kind = "fn"
	KindFlow    Kind = "flow"
	KindScreen  Kind = "screen"
	KindProject Kind = "project"
	KindEngine  Kind = "engine"
	// KindUnknown is an `export const X = b({...})` where b is imported from
	// 'tent' or 'tent/ui' but is no builder; the check reports T2002.
	KindUnknown Kind = "unknown"
)

// ValueKind says what a node of the declarative field tree holds. It is
// a byte, kept beside Value.Bool: the index holds about 400,000 Values
// at 5,000 tables.
type ValueKind uint8

// The kinds of declarative values.
const (
	ValString ValueKind = iota
	ValNumber
	ValBool
	ValNull
	ValArray
	ValObject
	// ValCall is a builder call such as text() or ref('users'): Str holds
	// the callee's name and Items the arguments.
	ValCall
	// ValCode is an arrow function or function expression: a body that only runs.
	ValCode
	// ValUnreadable is anything else (a variable, a spread, a computed key,
	// a template with substitutions): finding T2010.
	ValUnreadable
)

// Value is one node of a definition's declarative field tree. Kind and
// Bool share a word (88 bytes, not 104).
type Value struct {
	Kind  ValueKind
	Bool  bool
	Span  Span // the whole expression
	Str   string
	Num   float64
	Items []*Value // array items, or a call's arguments
	Props []*Prop  // an object literal's properties, in order
}

// Prop is one `key: value` of an object literal. A shorthand `{ users }`
// has Shorthand set and Value of kind ValUnreadable.
type Prop struct {
	Key       string
	KeySpan   Span // the key as written (quotes included where quoted)
	Span      Span // the whole `key: value`
	Value     *Value
	Shorthand bool
}

// NameRef is a name written in a declarative position or a test data key:
// Span covers exactly the name's characters (inside any quotes), so a
// rename replaces Span; Lit covers the whole literal (quotes included), so a
// remove can drop it.
type NameRef struct {
	Name string `json:"name"`
	Span Span   `json:"span"`
	Lit  Span   `json:"lit"`
}

// Definition is one definition of the project.
type Definition struct {
	Name     string
	Kind     Kind
	Builder  string // the builder's name as imported (table, fn, ...)
	Path     string // slash-separated, relative to the project root
	Stmt     Span   // the whole top-level statement
	NameSpan Span   // the exported identifier (zero for project and engine)
	Arg      *Value // the builder's object argument; nil when it is not an object literal

	// Exactly one of these is set, by Kind.
	Table   *Table
	Fn      *Fn
	Flow    *Flow
	Screen  *Screen
	Project *Project
	Engine  *Engine
}

// Table is what a table declares.
type Table struct {
	Schema      *schema.Table
	Columns     []*Column
	ColumnsProp *Prop       // `columns: {...}`
	Indexes     [][]NameRef // each index's column names
	IndexesProp *Prop
	Was         []NameRef
	WasProp     *Prop
	Removed     []NameRef
	RemovedProp *Prop
	May         *Prop // code
}

// Column returns the column named name, or nil.
func (t *Table) Column(name string) *Column {
	for _, c := range t.Columns {
		if c.Schema.Name == name {
			return c
		}
	}
	return nil
}

// Column is one column of a table, or one input field of a fn or flow.
type Column struct {
	Schema  *schema.Column
	Prop    *Prop    // `name: builder(...)`; Prop.KeySpan is the name
	Call    *Value   // the builder call (nil when not a call: T2010)
	Options *Value   // the options object literal (the call's last argument), or nil
	RefName *NameRef // the table named by ref('x'), for ref columns
	Was     []NameRef
	WasProp *Prop
}

// Fn is what a function declares.
type Fn struct {
	Input     []*Column
	InputProp *Prop
	Sends     []NameRef // declared
	SendsProp *Prop
	Run       *Prop // code
	May       *Prop // code
}

// Flow is what a flow declares.
type Flow struct {
	Input     []*Column
	InputProp *Prop
	Steps     []NameRef
	StepsProp *Prop
}

// Screen is what a screen declares.
type Screen struct {
	Path     string
	PathSpan Span
	Title    string
	Load     *Prop // code
	View     *Prop // code
}

// Project is what project.ts declares.
type Project struct {
	Name        string
	Users       NameRef // Users.Name is "users" and its spans zero where left out
	UsersProp   *Prop
	Removed     []NameRef
	RemovedProp *Prop
}

// Engine is what engine.ts declares.
type Engine struct {
	MailFrom  string
	HTTPAllow []string
}

// Import is one binding of an import declaration. For
// `import { purchases as o } from '../tables/purchases'` Imported is
// "purchases" and Local "o"; without `as` both name the same span.
type Import struct {
	Module       string // as written: 'tent', './x', '../tables/orders'
	ModuleSpan   Span   // inside the quotes
	Imported     string // "default" for a default import, "*" for a namespace
	ImportedSpan Span
	Local        string
	LocalSpan    Span
}

// Export is one specifier of `export { a as b }` or
// `export { a as b } from './x'` (Module empty for a local export).
type Export struct {
	Local        string
	LocalSpan    Span
	Exported     string
	ExportedSpan Span
	Module       string
}

// IdentRef is an identifier in a file that resolves, by the rules of
// lexical scope, to a top-level binding of that file (an import's local
// name or a top-level declaration). The declaration itself and import and
// export specifiers are not IdentRefs. A shorthand property `{ orders }`
// has Shorthand set: renaming it must write `orders: newName`.
type IdentRef struct {
	Name      string
	Span      Span
	Shorthand bool
}

// Why says why a word in code may name a definition or a column.
type Why string

// The reasons a code site is listed (docs/pages/format.md §4).
const (
	WhyDBAccessor Why = "db accessor" // ctx.db.orders
	WhyProperty   Why = "property"    // row.buyer
	WhyObjectKey  Why = "object key"  // { buyer: x }
	WhyString     Why = "string"      // 'orders'
	WhyComment    Why = "comment"     // // orders
	WhyCallName   Why = "call name"   // ctx.call('placeOrder')
)

// Word is an identifier-shaped word inside code that may name a definition
// or a column. Table is set where the context names a table: the accessor
// of ctx.db.T, and the keys of an object literal passed to ctx.db.T.*.
type Word struct {
	Word  string
	Span  Span
	Why   Why
	Table string
}

// Mark says how sure a code site is.
type Mark string

// The marks of a code site.
const (
	Likely Mark = "likely" // the accessor or call names the very table or function
	Maybe  Mark = "maybe"  // only the word matches
)

// DBUse is one `ctx.db.T` in code, with the method called on it and the
// keys of the object literal it is given (insert, where: the first
// argument; update: the second).
type DBUse struct {
	Def       string // the enclosing definition, "" in plain code
	Table     string
	TableSpan Span
	Method    string
	Keys      []NameRef
}

// CallUse is one `ctx.call('name', ...)`.
type CallUse struct {
	Def  string
	Name NameRef
}

// SendUse is one use of ctx.mail or ctx.http.
type SendUse struct {
	Def  string
	Kind string // "mail" or "http"
	Span Span
}

// Uses is what code does that the index records for the check and the
// sends inference.
type Uses struct {
	DB    []DBUse
	Calls []CallUse
	Sends []SendUse
	// LibCalls maps a definition (or "" for top-level code, or a top-level
	// function's name in lib code) to the imported bindings it calls, as
	// "module#imported", so that sending can be inferred through helpers.
	LibCalls map[string][]string
	// SendsOf maps a top-level function declared in this file (lib helpers)
	// to the send kinds its body uses.
	SendsOf map[string][]string
	// Rows is where rows of tables go in the file's code (rowflow.go).
	Rows RowFlow
}

// TestData is a test data file `testdata/<table>.json`.
type TestData struct {
	Table string // the file's base name
	Rows  []Row
}

// Row is one object of a test data file.
type Row struct {
	Span Span
	ID   string // "" where the row has no string id
	Keys []RowKey
}

// RowKey is one top-level key of a row, with its value. It is 80 bytes
// (the rows of 10,000 tables hold 435,000 of them): the pair's span is
// told by the key's and its value's (Pair).
type RowKey struct {
	Name      NameRef // Span inside the quotes, Lit with them
	Value     any     // as encoding/json decodes it
	ValueSpan Span
}

// Pair is the span of `"key": value`, without the separating comma.
func (k *RowKey) Pair() Span { return Span{k.Name.Lit.Start, k.ValueSpan.End} }

// Lang is how a file is read.
type Lang string

// The languages of project files.
const (
	LangTS   Lang = "ts"
	LangTSX  Lang = "tsx"
	LangJSON Lang = "json"
)

// File is one indexed file. It is immutable once built.
type File struct {
	Path string // slash-separated, relative to the project root
	Lang Lang
	Src  []byte
	// lines are the byte offset of the start of each line (Lines), or
	// nil where they are counted on first use: by lateLines, in a
	// one-shot check's build (Options.Lazy), which asks the lines of no
	// file but those it finds something in. On 10,000 tables they were
	// 13.5 MB, memory fresh from the system there.
	lines     []int
	lateLines *lateLines

	Definitions []*Definition
	Imports     []Import
	Exports     []Export
	// refs are the file's IdentRefs (IdentRefs).
	refs []IdentRef
	// words are the identifier-shaped words of the file's code, by word
	// (Words); a file loaded from the index cache keeps them as stored
	// (stored) until they are first asked for.
	words  map[string][]Word
	stored *storedWords
	// lazy, where set, says that the file's IdentRefs and words were
	// left out of its build (Options.Lazy): they are read from its text
	// on first use (cache_code.go).
	lazy     *lazyCode
	Uses     Uses
	TestData *TestData // for testdata/*.json

	// Findings are what reading this one file found: T1001, T1002, T1003, T2010.
	Findings []diag.Finding

	// Tree is the syntax tree, kept for incremental re-parsing (nil for
	// JSON, for a file over 256 KB, and where the index drops trees).
	Tree *sitter.Tree

	// record is the index cache's record this file was loaded from (nil
	// for a file read from its text): SaveCache writes it again as it
	// is instead of encoding the file anew. A File never changes after
	// it is made, so the record stays its encoding. Where recordAt is
	// set, the record is kept without the text it holds: Src goes at
	// recordAt (File.recordParts), so that a one-shot build copies no
	// text into its records.
	record   []byte
	recordAt int
}

// Place is a plain place that names a definition or a column (docs/pages/format.md §4):
// rename replaces Span with the new name (or, for KindTestDataFile, renames
// the file Path).
type Place struct {
	Target string    `json:"target"` // "orders" or "orders.buyer"
	Path   string    `json:"path"`
	Span   Span      `json:"span"`
	Kind   PlaceKind `json:"kind"`
	// Shorthand marks an IdentRef written as `{ orders }`.
	Shorthand bool `json:"shorthand,omitempty"`
}

// PlaceKind says what a plain place is.
type PlaceKind string

// The kinds of plain places.
const (
	PlaceName         PlaceKind = "name"       // the export const identifier or the column key
	PlaceImport       PlaceKind = "import"     // the imported name of an import specifier
	PlaceExport       PlaceKind = "export"     // a name in an export specifier
	PlaceIdentifier   PlaceKind = "identifier" // an identifier resolved by scope
	PlaceRef          PlaceKind = "ref"        // ref('orders')
	PlaceStep         PlaceKind = "step"       // a flow step
	PlaceIndex        PlaceKind = "index"      // a column in indexes
	PlaceRemoved      PlaceKind = "removed"    // a name in removed
	PlaceWas          PlaceKind = "was"        // a name in was
	PlaceUsers        PlaceKind = "users"      // project({ users: 'users' })
	PlaceTestDataFile PlaceKind = "testdata file"
	PlaceTestDataKey  PlaceKind = "testdata key"
)

// CodeSite is a place inside code that may name a definition or a column
// but cannot be proven to (docs/pages/format.md §4).
type CodeSite struct {
	Target string `json:"target"`
	Path   string `json:"path"`
	Span   Span   `json:"span"`
	Why    Why    `json:"why"`
	Mark   Mark   `json:"mark"`
}
