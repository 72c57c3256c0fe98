package check

import (
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
)

// A git diff -U0 with a new file, hunks with and without counts, a line of
// text that reads like a header, a moved line, a quoted path, a deleted
// file and a file without a final newline.
const sampleDiff = `diff --git a/tables/items.ts b/tables/items.ts
new file mode 100644
index 0000000..1111111
--- /dev/null
+++ b/tables/items.ts
@@ -0,0 +1,3 @@
+export const items = table({
+  columns: { order: ref('ordr') },
+})
diff --git a/tables/orders.ts b/tables/orders.ts
index 2222222..3333333 100644
--- a/tables/orders.ts
+++ b/tables/orders.ts
@@ -4,0 +5 @@ export const orders = table({
+++ a line of text that reads like a header
@@ -7 +7,0 @@ export const orders = table({
-    buyer:   ref('user'),
@@ -9,0 +10,2 @@ export const orders = table({
+    buyer: ref('user'),
+    seller: ref('sellers'),
diff --git "a/lib/a\tb.ts" "b/lib/a\tb.ts"
--- "a/lib/a\tb.ts"
+++ "b/lib/a\tb.ts"
@@ -1 +1 @@
-x
\ No newline at end of file
+y
\ No newline at end of file
diff --git a/tables/old.ts b/tables/old.ts
deleted file mode 100644
--- a/tables/old.ts
+++ /dev/null
@@ -1,2 +0,0 @@
-export const old = table({
-})
`

func TestParseDiff(t *testing.T) {
	c, err := ParseDiff([]byte(sampleDiff))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path    string
		line    int
		endLine int
		want    bool
	}{
		{"tables/items.ts", 1, 1, true},
		{"tables/items.ts", 2, 2, true},
		{"tables/items.ts", 4, 4, false},
		{"tables/orders.ts", 5, 5, true},    // the header-like line of text
		{"tables/orders.ts", 7, 7, false},   // a line removed: nothing new there
		{"tables/orders.ts", 10, 10, false}, // moved from line 7
		{"tables/orders.ts", 11, 11, true},
		{"tables/orders.ts", 9, 11, true}, // a finding over lines 9 to 11
		{"tables/orders.ts", 12, 12, false},
		{"lib/a\tb.ts", 1, 1, true},
		{"tables/old.ts", 1, 1, false},
		{"+++ a line of text that reads like a header", 1, 1, false},
	}
	for _, tt := range tests {
		f := diag.Finding{Path: tt.path, Line: tt.line, EndLine: tt.endLine}
		if got := c.Touches(f); got != tt.want {
			t.Errorf("%s:%d-%d: changed %v, want %v", tt.path, tt.line, tt.endLine, got, tt.want)
		}
	}
	c.AddFile("tables/new.ts")
	if !c.Touches(diag.Finding{Path: "tables/new.ts", Line: 40, EndLine: 40}) {
		t.Error("a file added whole: its line 40 is not changed")
	}
}

func TestParseDiffRefuses(t *testing.T) {
	for name, diff := range map[string]string{
		"bad hunk":    "+++ b/a.ts\n@@ -1 +x @@\n",
		"bad quoting": "+++ \"b/a.ts\n",
	} {
		if _, err := ParseDiff([]byte(diff)); err == nil || !strings.Contains(err.Error(), "diff line 2") && !strings.Contains(err.Error(), "diff line 1") {
			t.Errorf("%s: got %v, want an error naming the line", name, err)
		}
	}
}
