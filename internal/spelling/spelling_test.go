package spelling

import "testing"

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"users", "users", 0},
		{"user", "users", 1},
		{"nmae", "name", 1}, // a swap is one edit
		{"orders", "odrers", 1},
		{"Orderz", "orders", 2},
		{"", "abc", 3},
		{"kitten", "sitting", 3},
		{"a", "", 1},
		{"ab", "ba", 1},
		{"ca", "abc", 3}, // no edit is made twice
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Distance(tt.b, tt.a); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestNearest(t *testing.T) {
	if got := Nearest("Orderz", []string{"users", "orders"}); got != "orders" {
		t.Errorf("nearest = %q", got)
	}
	if got := Nearest("x", []string{"users", "orders"}); got != "" {
		t.Errorf("nearest of a far name = %q", got)
	}
}
