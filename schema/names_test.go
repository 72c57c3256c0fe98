package schema

import "testing"

func TestReservedName(t *testing.T) {
	for _, tt := range []struct {
		name, prefix string
	}{
		{"sqlite_master", SQLitePrefix},
		{"SQLITE_sequence", SQLitePrefix},
		{"sqlite_", SQLitePrefix},
		{"_tent_meta", TentPrefix},
		{"_Tent_x", TentPrefix},
		{"sqlite", ""},
		{"mysqlite_x", ""},
		{"_tentx", ""},
		{"orders", ""},
		{"", ""},
	} {
		prefix, ok := ReservedName(tt.name)
		if prefix != tt.prefix || ok != (tt.prefix != "") {
			t.Errorf("ReservedName(%q) = %q, %v; want %q", tt.name, prefix, ok, tt.prefix)
		}
	}
}
