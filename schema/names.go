package schema

import "strings"

// The prefixes of the names that SQLite and tent-tools keep for their own
// tables and columns, in any case: SQLite refuses to make a table whose
// name starts sqlite_ (sqlite_master, sqlite_sequence, ...), and the test
// database keeps _tent_ for its own (runner/testdb).
const (
	SQLitePrefix = "sqlite_"
	TentPrefix   = "_tent_"
)

// ReservedName reports whether name is one that no table nor column may
// take, as SQLite compares names (ASCII letters in any case), and which
// prefix it starts with. This is the one rule: the check (T2014), rename
// and change refuse a name by it, and the runner before it makes a table.
func ReservedName(name string) (prefix string, reserved bool) {
	for _, p := range []string{SQLitePrefix, TentPrefix} {
		if len(name) >= len(p) && strings.EqualFold(name[:len(p)], p) {
			return p, true
		}
	}
	return "", false
}

// ReservedWhy says why a reserved name is refused, for a message.
func ReservedWhy(prefix string) string {
	if prefix == SQLitePrefix {
		return "SQLite keeps names starting sqlite_ for its own tables"
	}
	return "the test database keeps names starting _tent_ for its own tables"
}
