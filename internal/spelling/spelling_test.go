package spelling

import (
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
)

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

// TestWithin: Within answers Distance where it is at most k and k+1
// past it, over random names of a small alphabet (many near misses).
func TestWithin(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	name := func() string {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = "abcs"[rng.IntN(4)]
		}
		return string(b)
	}
	long := strings.Repeat("ab", 40) // past the buffer on the stack
	pairs := [][2]string{{"", ""}, {"", "ab"}, {"nmae", "name"}, {"kitten", "sitting"}, {long, long + "c"}, {long, "b" + long[1:]}}
	for range 20000 {
		pairs = append(pairs, [2]string{name(), name()})
	}
	for _, p := range pairs {
		want := Distance(p[0], p[1])
		for k := 0; k <= 4; k++ {
			if got := Within(p[0], p[1], k); got != min(want, k+1) {
				t.Fatalf("Within(%q, %q, %d) = %d; Distance is %d", p[0], p[1], k, got, want)
			}
		}
	}
}

// TestLetters: Distance is never less than half the bits in which the
// names' Letters differ, over random names of letters, digits and more.
func TestLetters(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	name := func() string {
		b := make([]byte, rng.IntN(10))
		for i := range b {
			b[i] = "aAz9_$-.x"[rng.IntN(9)]
		}
		return string(b)
	}
	for range 20000 {
		a, b := name(), name()
		if d, diff := Distance(a, b), bits.OnesCount64(Letters(a)^Letters(b)); 2*d < diff {
			t.Fatalf("Distance(%q, %q) = %d, but their letters differ in %d bits", a, b, d, diff)
		}
	}
	if Letters("ab") == Letters("abc") || Letters("ba") != Letters("ab") {
		t.Error("Letters is no set of the letters")
	}
}
