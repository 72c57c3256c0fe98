package tools

import (
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
)

// TestSearchModes: regex, include, caseInsensitive, filesOnly and count,
// each against what the files hold; a bad regex is T9102 naming where.
func TestSearchModes(t *testing.T) {
	t.Parallel()
	w, _ := openFiles(t, map[string]string{
		"tables/orders.ts":  "placedAt: time(),\nPlacedBy: text(),\nplacedAt again\n",
		"screens/home.tsx":  "<Text>placedAt</Text>\n",
		"lib/notes.md":      "PLACEDAT in capitals\n",
		".gitignore":        "ignored.ts\n",
		"ignored.ts":        "placedAt\n",
		"lib/other.ts":      "nothing here\n",
		"lib/deep/x.tsx":    "placedAt: 1\n",
		"tables/payment.ts": "placedOn\n",
	})
	tests := []struct {
		name, input string
		want        string // the text answer
	}{
		{"regex", `{"text": "placed[A-Z][a-z]+", "regex": true}`,
			"lib/deep/x.tsx:1: placedAt: 1\nscreens/home.tsx:1: <Text>placedAt</Text>\ntables/orders.ts:1: placedAt: time(),\ntables/orders.ts:3: placedAt again\ntables/payment.ts:1: placedOn\n"},
		{"include", `{"text": "placedAt", "include": "**/*.tsx"}`,
			"lib/deep/x.tsx:1: placedAt: 1\nscreens/home.tsx:1: <Text>placedAt</Text>\n"},
		{"caseInsensitive", `{"text": "placedat", "caseInsensitive": true, "in": "lib"}`,
			"lib/deep/x.tsx:1: placedAt: 1\nlib/notes.md:1: PLACEDAT in capitals\n"},
		{"a plain text is no regex", `{"text": "placed.t"}`, "no hits for \"placed.t\"\n"},
		{"filesOnly", `{"text": "placedAt", "filesOnly": true}`,
			"3 files hold \"placedAt\":\nlib/deep/x.tsx\nscreens/home.tsx\ntables/orders.ts\n"},
		{"count", `{"text": "placed", "count": true, "caseInsensitive": true}`,
			"7 lines in 5 files hold \"placed\":\nlib/deep/x.tsx: 1\nlib/notes.md: 1\nscreens/home.tsx: 1\ntables/orders.ts: 3\ntables/payment.ts: 1\n"},
		{"count with a limit", `{"text": "placedAt", "count": true, "limit": 1}`,
			"4 lines in 3 files hold \"placedAt\":\nlib/deep/x.tsx: 1\n(2 more files cut by the limit of 1; narrow the search with in or include, or raise limit)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans, err := call(w, "search", tt.input)
			if err != nil {
				t.Fatal(err)
			}
			if got := ans.Text; !strings.HasSuffix(got, tt.want) {
				t.Errorf("got\n%s\nwant it to end with\n%s", got, tt.want)
			}
		})
	}
	for input, want := range map[string]string{
		`{"text": "a(b", "regex": true}`:   "missing closing ) at character 1",
		`{"text": "ab[c", "regex": true}`:  `missing closing ] at character 3: "[c"`,
		`{"text": "x", "include": "[a"}`:   "include \"[a\" is no glob",
		`{"text": "a**b+", "regex": true}`: "invalid nested repetition operator",
	} {
		_, err := call(w, "search", input)
		if te := wantCode(t, err, diag.T9102); te != nil && !strings.Contains(te.Message, want) {
			t.Errorf("%s: %s; want it to say %q", input, te.Message, want)
		}
	}
}

// TestHidden: list and search leave out dotfiles and dot-folders with
// what they hold, unless hidden, a glob that names one, or the folder
// named is one.
func TestHidden(t *testing.T) {
	t.Parallel()
	w, _ := openFiles(t, map[string]string{
		".env":             "SECRET=x\n",
		".github/ci.yml":   "on: push\nx\n",
		"tables/orders.ts": "x\n",
	})
	paths := func(tool, input string) string {
		ans, err := call(w, tool, input)
		if err != nil {
			t.Fatal(err)
		}
		var ps []string
		switch a := ans.Data.(type) {
		case ListAnswer:
			for _, e := range a.Entries {
				ps = append(ps, e.Path)
			}
		case SearchAnswer:
			for _, f := range a.Files {
				ps = append(ps, f.Path)
			}
		}
		return strings.Join(ps, " ")
	}
	for _, tt := range []struct{ tool, input, want string }{
		{"list", `{}`, "tables tables/orders.ts"},
		{"list", `{"hidden": true}`, ".env .github .github/ci.yml tables tables/orders.ts"},
		{"list", `{"glob": "**/*"}`, "tables/orders.ts"},
		{"list", `{"glob": ".github/**"}`, ".github/ci.yml"},
		{"list", `{"glob": "**/.env"}`, ".env"},
		{"list", `{"path": ".github"}`, ".github/ci.yml"},
		{"search", `{"text": "x", "filesOnly": true}`, "tables/orders.ts"},
		{"search", `{"text": "x", "filesOnly": true, "hidden": true}`, ".env .github/ci.yml tables/orders.ts"},
		{"search", `{"text": "x", "filesOnly": true, "include": ".github/*"}`, ".github/ci.yml"},
		{"search", `{"text": "x", "filesOnly": true, "in": ".github"}`, ".github/ci.yml"},
		{"search", `{"text": "", "filesOnly": true}`, "tables/orders.ts"},
		{"search", `{"text": "", "filesOnly": true, "hidden": true}`, ".env .github/ci.yml tables/orders.ts"},
	} {
		if got := paths(tt.tool, tt.input); got != tt.want {
			t.Errorf("%s %s: %s; want %s", tt.tool, tt.input, got, tt.want)
		}
	}
}
