package rename

import (
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/schema"
)

// reserved lists the words that cannot name a binding in a TypeScript
// module (modules are strict code): JavaScript's reserved words, those of
// strict mode, and eval and arguments, which strict code cannot bind.
var reserved = map[string]bool{
	"break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true,
	"debugger": true, "default": true, "delete": true, "do": true, "else": true, "enum": true,
	"export": true, "extends": true, "false": true, "finally": true, "for": true, "function": true,
	"if": true, "import": true, "in": true, "instanceof": true, "new": true, "null": true,
	"return": true, "super": true, "switch": true, "this": true, "throw": true, "true": true,
	"try": true, "typeof": true, "var": true, "void": true, "while": true, "with": true,
	"yield": true, "let": true, "static": true, "implements": true, "interface": true,
	"package": true, "private": true, "protected": true, "public": true, "await": true,
	"arguments": true, "eval": true,
}

// Reserved reports whether word cannot name a binding in a module.
func Reserved(word string) bool { return reserved[word] }

// ReservedPrefix starts the names the test database keeps for its own
// tables (runner/testdb); schema.ReservedName is the whole rule (sqlite_
// too, in any case).
const ReservedPrefix = schema.TentPrefix

// checkNewName refuses a new name that no definition or column may take,
// whatever the project holds.
func checkNewName(to string) *diag.ToolError {
	switch {
	case !definitions.Identifier(to):
		return diag.Errorf(diag.T9107, "%q is not an identifier: a name is a letter, _ or $, then letters, digits, _ or $", to).With("to", to)
	case Reserved(to):
		return diag.Errorf(diag.T9107, "%q is a reserved word of JavaScript and cannot name a definition or a column", to).With("to", to)
	case to == "id":
		return diag.Errorf(diag.T9107, "`id` is every table's implicit column and cannot be taken").With("to", to)
	}
	if prefix, ok := schema.ReservedName(to); ok {
		return diag.Errorf(diag.T9107, "%q starts with %s: %s; choose another name", to, prefix, schema.ReservedWhy(prefix)).With("to", to)
	}
	return nil
}

// CheckName refuses (T9107) a name that no new definition or column may
// take, whatever the project holds: no identifier, a reserved word, `id`,
// or a name SQLite or the test database keep (schema.ReservedName). The editor's operations that add a
// table or a column hold their names to it, as rename does.
func CheckName(name string) *diag.ToolError {
	if terr := checkNewName(name); terr != nil {
		delete(terr.Data, "to")
		return terr.With("name", name)
	}
	return nil
}
