package tools

import (
	"testing"

	"github.com/tent-tools/tent-tools/diag"
)

// TestRowsUnknownTable: a table that is not there is T9103, naming the
// table it is a likely typo of, where there is one.
func TestRowsUnknownTable(t *testing.T) {
	w, _ := openCopy(t, Options{})
	for _, tt := range []struct{ table, message, nearest string }{
		{"orderz", "no table named orderz; did you mean orders?", "orders"},
		{"Users", "no table named Users; did you mean users?", "users"},
		{"invoices", "no table named invoices", ""},
	} {
		_, err := call(w, "rows", `{"table": "`+tt.table+`"}`)
		te := wantCode(t, err, diag.T9103)
		if near, _ := te.Data["nearest"].(string); te.Message != tt.message || near != tt.nearest {
			t.Errorf("rows %s: %q, nearest %q; want %q, %q", tt.table, te.Message, near, tt.message, tt.nearest)
		}
	}
}
