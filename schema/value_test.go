package schema

import (
	"strings"
	"testing"
)

func TestCheckValue(t *testing.T) {
	choice := &Column{Name: "status", Type: Choice, Choices: []string{"new", "paid"}}
	tests := []struct {
		col     *Column
		value   any
		wantErr string // "" when the value fits
	}{
		{&Column{Name: "name", Type: Text}, "Ada", ""},
		{&Column{Name: "name", Type: Text}, 3.0, "name wants text (a string), got 3"},
		{&Column{Name: "name", Type: Text}, nil, "name is required (text), got null"},
		{&Column{Name: "note", Type: Text, Optional: true}, nil, ""},
		{&Column{Name: "qty", Type: Int}, 2.0, ""},
		{&Column{Name: "qty", Type: Int}, 2.5, "qty wants int (a whole number), got 2.5"},
		{&Column{Name: "total", Type: Money}, 4900.0, ""},
		{&Column{Name: "total", Type: Money}, "49.00", `total wants money (a whole number), got "49.00"`},
		{&Column{Name: "rate", Type: Num}, 0.25, ""},
		{&Column{Name: "rate", Type: Num}, true, "rate wants num (a number), got true"},
		{&Column{Name: "active", Type: Bool}, false, ""},
		{&Column{Name: "active", Type: Bool}, "yes", `active wants bool, got "yes"`},
		{&Column{Name: "at", Type: Time}, "2024-01-15T14:02:00Z", ""},
		{&Column{Name: "at", Type: Time}, "2024-01-15", ""},
		{&Column{Name: "at", Type: Time}, "15/01/2024", `at wants time (an ISO 8601 string), got "15/01/2024"`},
		{&Column{Name: "buyer", Type: Ref, Ref: "users"}, "u1", ""},
		{&Column{Name: "buyer", Type: Ref, Ref: "users"}, []any{"u1"}, "buyer wants ref (a string), got an array"},
		{choice, "paid", ""},
		{choice, "lost", `status wants one of ["new" "paid"], got "lost"`},
		{&Column{Name: "meta", Type: JSON}, map[string]any{"a": 1.0}, ""},
	}
	for _, tt := range tests {
		err := CheckValue(tt.col, tt.value)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.wantErr {
			t.Errorf("CheckValue(%s %s, %v) = %q, want %q", tt.col.Name, tt.col.Type, tt.value, got, tt.wantErr)
		}
	}
}

func TestIsType(t *testing.T) {
	for _, ty := range Types {
		if !IsType(string(ty)) {
			t.Errorf("IsType(%q) = false", ty)
		}
	}
	for _, name := range []string{"texte", "", "Text", strings.Repeat("x", 3)} {
		if IsType(name) {
			t.Errorf("IsType(%q) = true", name)
		}
	}
}
