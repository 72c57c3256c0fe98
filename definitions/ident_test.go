package definitions

import "testing"

// TestIdentifier: one rule for every package, non-ASCII letters included;
// every byte of an identifier is an IdentByte, so a scan never cuts one.
func TestIdentifier(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"orders", true}, {"_x", true}, {"$y2", true}, {"café", true}, {"名前", true}, {"a\u0301b", true},
		{"", false}, {"2a", false}, {"a-b", false}, {"a b", false}, {"\u0301a", false}, {"a\xffb", false}, {"é!", false},
	}
	for _, tt := range tests {
		if got := Identifier(tt.s); got != tt.want {
			t.Errorf("Identifier(%q) = %v; want %v", tt.s, got, tt.want)
		}
		if got := Identifier([]byte(tt.s)); got != tt.want {
			t.Errorf("Identifier([]byte(%q)) = %v; want %v", tt.s, got, tt.want)
		}
		if tt.want {
			for i := range len(tt.s) {
				if !IdentByte(tt.s[i]) {
					t.Errorf("byte %d of %q is no IdentByte", i, tt.s)
				}
			}
		}
	}
}
