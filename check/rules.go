package check

import (
	"slices"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
)

// Rule is one finding code of the check: its severity (where a finding does
// not say otherwise), a title, the help text that SARIF and the docs give,
// and the functions that find it. Rules whose findings the index makes while
// reading files (T1001–T1003, T2010) have no function here.
type Rule struct {
	Code     string
	Severity diag.Severity
	Title    string
	Help     string
	// run finds what is wrong in one file's definitions and code, looking
	// up the rest of the project only through the pass's recorded lookups
	// (pass.go), so that its findings are kept per file and made again
	// only where a change alters what it looked up.
	run func(*pass) []diag.Finding
	// joined finds what needs every file at once (an earlier definition by
	// path order, project.ts); it runs again on every change, after run's
	// findings.
	joined func(*pass) []diag.Finding
}

// Rules describes every code the check reports, in code order: its own
// rules, the index's, and T2011, which comes in through Options.Extra.
func Rules() []Rule {
	rules := append(registry(), extraRules()...)
	slices.SortFunc(rules, func(a, b Rule) int { return strings.Compare(a.Code, b.Code) })
	return rules
}

// registry is the list of rules, in code order. T2011 is not here: it needs
// the test database, and its findings come in through Options.Extra; it is
// listed by extraRules so that reports still describe it.
func registry() []Rule {
	return []Rule{
		{diag.T1001, diag.Error, "TypeScript syntax error",
			"A .ts or .tsx file does not parse. The definitions that can still be read are indexed; fix the syntax at the position given.", nil, nil},
		{diag.T1002, diag.Error, "test data is not valid JSON",
			"A testdata/<table>.json file must hold one JSON array of row objects. Fix the JSON at the position given.", nil, nil},
		{diag.T1003, diag.Error, "file is not UTF-8",
			"Project files are read as UTF-8 text. Save the file as UTF-8.", nil, nil},
		{diag.T1004, diag.Error, "file over 1 MB",
			"A project file larger than the 1 MB a tool writes is indexed without its contents (never read whole): no definitions are read from it. Split it, or move it out of the project.", nil, nil},

		{diag.T2001, diag.Error, "duplicate name",
			"Tables, functions, flows and screens share one namespace across the project, and the columns of a table (or the input fields of a function or flow) share one within it; the implicit column id cannot be declared. Rename one of the two.", duplicateNames, nil},
		{diag.T2002, diag.Error, "unknown builder or column type",
			"A definition must be built with table, fn or flow from 'tent', or screen from 'tent/ui'; a column with text, int, num, money, bool, time, json, ref or choice.", unknownBuilders, nil},
		{diag.T2003, diag.Error, "ref to an unknown table",
			"ref('x') must name a table of the project. Where a table's name is one or two letters off (or the plural of what is written), the fix names it.", unknownRefs, nil},
		{diag.T2004, diag.Error, "index names an unknown column",
			"Each name in a table's indexes must be one of its columns (or id).", unknownIndexColumns, nil},
		{diag.T2005, diag.Error, "flow step names no function",
			"Each of a flow's steps must name a function (fn) of the project.", unknownSteps, nil},
		{diag.T2006, diag.Error, "defined and removed",
			"A name in a table's removed may not be a live column, and a name in the project's removed may not be a live table: drop the name from removed, or remove the definition.", definedAndRemoved, removedTables},
		{diag.T2007, diag.Error, "was clash",
			"A was name tells the migration which old column (or table) to rename. It may not be the name of another live column of the same table (or another definition), nor the was name of another one.", columnWasClashes, wasClashes},
		{diag.T2008, diag.Error, "duplicate screen path",
			"Screen paths are routes and must be unique; paths that differ only in the names of their :parameters are the same route.", nil, duplicatePaths},
		{diag.T2009, diag.Error, "bad project.ts or engine.ts",
			"project.ts must hold export default project({ name: '...' }), with users naming a table; engine.ts, where there is one, export default engine({ mail?: { from }, http?: { allow: [hosts] } }).", nil, badProjectOrEngine},
		{diag.T2010, diag.Error, "declarative position not readable",
			"A declarative part of a definition (keys, literals, builder calls) holds something that cannot be read without running code: a variable, a spread, a computed key. Write the value out.", nil, nil},
		{diag.T2012, diag.Error, "required field missing",
			"A table needs columns, a fn run, a flow steps, a screen path and view. Without it the definition does nothing, so the check says so instead of leaving it out silently.", missingFields, nil},
		{diag.T2013, diag.Error, "unknown column option",
			"A column's options are optional, private, default, unique and was; any other key would be ignored silently (optinal: true would leave the column required). Where the key misspells one option, the fix writes it.", unknownColumnOptions, nil},
		{diag.T2014, diag.Error, "reserved table or column name",
			"SQLite keeps the names starting sqlite_ (sqlite_master, sqlite_sequence) and the test database those starting _tent_, in any case: a table or column so named cannot be made, or would be taken for one of theirs. Rename it.", reservedNames, nil},

		{diag.T2501, diag.Error, "ctx.db names an unknown table",
			"ctx.db.X must name a table of the project. After a rename, change the accessor to the table's new name.", unknownDBTables, nil},
		{diag.T2502, diag.Error, "ctx.call names an unknown function",
			"ctx.call('X') must name a function or flow of the project.", unknownCalls, nil},
		{diag.T2503, diag.Error, "unresolved import",
			"A relative import must name a file of the project; app code may import only 'tent', 'tent/ui' and project files (no packages).", unresolvedImports, nil},
		{diag.T2504, diag.Error, "unknown column in a ctx.db literal",
			"The keys of the object given to ctx.db.T.insert, update or where must be columns of T (or id).", unknownDBKeys, nil},
		{diag.T2505, diag.Warning, "sends not declared, or declared but unused",
			"A function that uses ctx.mail or ctx.http, or calls one that does, declares it in sends: ['mail', 'http']; a declared way it never uses is also reported. Both count as sending.", sendsMismatch, nil},
		{diag.T2506, diag.Error, "a row names an unknown column",
			"Code names a column on a value that is certainly a row of table T (what ctx.db.T.get, where, all, insert and update give and their elements, the row of T's may rules, what a screen's load gives its view, a helper's parameter that every call gives such a row): row.c, const { c } = row, order: 'c', columns={['c']} of a Table of T's rows. T has no column c, so at run time the value is undefined or the call fails. After a rename the fix writes the new name.", unknownRowColumns, nil},

		{diag.T2601, diag.Error, "test data for an unknown table",
			"testdata/<table>.json must be named after a table of the project.", unknownTestDataTables, nil},
		{diag.T2602, diag.Error, "unknown column in test data",
			"Each key of a test data row must be a column of its table, or id.", unknownTestDataColumns, nil},
		{diag.T2603, diag.Error, "wrong type in test data",
			"A test data value must fit its column: int and money whole numbers, num any number, time an ISO 8601 string, choice one of its strings, ref and text strings.", wrongTestDataTypes, nil},
		{diag.T2604, diag.Error, "missing required column in test data",
			"Each test data row has an id and a value for each column that is neither optional nor has a default.", missingTestDataColumns, nil},
		{diag.T2605, diag.Error, "duplicate id in test data",
			"The ids of a table's test data rows must be unique.", duplicateTestDataIDs, nil},
		{diag.T2606, diag.Error, "ref to a missing row in test data",
			"A ref value in test data must be the id of a row in the test data of the table it refers to.", missingTestDataRows, nil},
	}
}

// extraRules describes the codes whose findings come from outside the check
// (Options.Extra), so that a report can still name their rule.
func extraRules() []Rule {
	return []Rule{
		{diag.T2011, diag.Error, "test database has what no definition names",
			"The test database has a column or table that no definition names, as name, was or removed: state the rename with was, or the removal with removed.", nil, nil},
	}
}
