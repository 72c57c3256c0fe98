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
