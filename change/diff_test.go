package change

import "testing"

func TestDiffText(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	b := "1\n2\n3\nfour\n5\n6\n7\n8\n9\n10\neleven\n11\n12\n"
	want := "@@ -2,5 +2,5 @@\n 2\n 3\n-4\n+four\n 5\n 6\n@@ -9,4 +9,5 @@\n 9\n 10\n+eleven\n 11\n 12\n"
	if got := diffText(a, b); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := diffText("a\r\nb\r\n", "a\r\nc\r\n"); got != "@@ -1,2 +1,2 @@\n a\\r\n-b\\r\n+c\\r\n" {
		t.Errorf("CRLF: got %q", got)
	}
	if got := diffText("x\n", ""); got != "@@ -1,1 +1,0 @@\n-x\n" {
		t.Errorf("deleted: got %q", got)
	}
}

// TestLineEdits: the edits turn a into b, each cut to what differs.
func TestLineEdits(t *testing.T) {
	cases := []struct{ a, b string }{
		{"a\nb\nc\n", "a\nB\nc\n"},
		{"a\nb\nc\n", "a\nb\nx\nc\n"},
		{"a\nb\nc\n", "a\nc\n"},
		{"", "new\n"},
		{"one\n", ""},
		{"héllo wörld\n", "hé!lo wörld\n"},
		{"x\r\ny\r\n", "x\r\nz\r\ny\r\n"},
		{"a\nb\nc\nd\ne\nf\n", "A\nb\nc\nd\ne\nF\n"},
		{"no end", "no end here"},
	}
	for _, c := range cases {
		edits := LineEdits([]byte(c.a), []byte(c.b))
		got, err := Apply([]byte(c.a), edits)
		if err != nil || string(got) != c.b {
			t.Errorf("%q -> %q: edits %+v give %q (%v)", c.a, c.b, edits, got, err)
		}
	}
	if e := LineEdits([]byte("a\nb\nc\nd\ne\nf\n"), []byte("A\nb\nc\nd\ne\nF\n")); len(e) != 2 || e[0] != (Edit{Start: 0, End: 1, Text: "A"}) {
		t.Errorf("two hunks: %+v", e)
	}
}
