package outline

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/golden"
	"github.com/tent-tools/tent-tools/internal/projectgen"
)

func shopIndex(t testing.TB) *definitions.Index {
	t.Helper()
	ix, err := definitions.Build(context.Background(), "../testdata/projects/shop")
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// generated holds generated projects, indexed once per size for the tests
// and benchmarks of this package.
var generated struct {
	sync.Mutex
	bySize map[int]*definitions.Index
}

func generatedIndex(tables int) *definitions.Index {
	generated.Lock()
	defer generated.Unlock()
	if generated.bySize == nil {
		generated.bySize = map[int]*definitions.Index{}
	}
	ix := generated.bySize[tables]
	if ix == nil {
		ix = definitions.FromFiles(context.Background(), projectgen.Generate(projectgen.Options{Tables: tables, Seed: 1}))
		generated.bySize[tables] = ix
	}
	return ix
}

func TestShopText(t *testing.T) {
	golden.Check(t, "testdata/shop.txt.golden", []byte(Build(shopIndex(t)).Text(0)))
}

func TestShopJSON(t *testing.T) {
	out, err := json.MarshalIndent(Build(shopIndex(t)), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/shop.json.golden", append(out, '\n'))
}

// TestJSONShape holds the JSON to docs/pages/map.md for every definition of a
// generated project: the fields each kind must carry, as arrays, never null.
func TestJSONShape(t *testing.T) {
	out, err := json.Marshal(Build(generatedIndex(300)))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Files []struct {
			Path        string           `json:"path"`
			Definitions []map[string]any `json:"definitions"`
		} `json:"files"`
	}
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"table":  {"columns"},
		"fn":     {"sends", "calls"},
		"flow":   {"steps", "sends"},
		"screen": {"path"},
	}
	seen := map[string]int{}
	for _, f := range m.Files {
		if f.Definitions == nil {
			t.Errorf("%s: definitions is null", f.Path)
		}
		for _, d := range f.Definitions {
			kind, _ := d["kind"].(string)
			seen[kind]++
			for _, k := range []string{"name", "kind", "line"} {
				if _, ok := d[k]; !ok {
					t.Errorf("%s %v: no %s", f.Path, d["name"], k)
				}
			}
			for _, k := range want[kind] {
				if _, ok := d[k]; !ok || d[k] == nil {
					t.Errorf("%s %v: %s missing or null", f.Path, d["name"], k)
				}
			}
			cols, _ := d["columns"].([]any)
			for _, c := range cols {
				col := c.(map[string]any)
				if _, ok := col["was"].([]any); !ok {
					t.Errorf("%s %v: column %v has was %v, want an array", f.Path, d["name"], col["name"], col["was"])
				}
				for _, k := range []string{"name", "type", "optional", "private"} {
					if _, ok := col[k]; !ok {
						t.Errorf("%s %v: column %v has no %s", f.Path, d["name"], col["name"], k)
					}
				}
			}
		}
	}
	if seen["table"] != 300 || seen["fn"] < 600 || seen["flow"] != 30 || seen["screen"] != 60 {
		t.Errorf("kinds seen %v", seen)
	}
}

// TestFolding shows the map of a 300-table project folded to the default
// budget: the users table (the most referenced) kept, the rest counted.
func TestFolding(t *testing.T) {
	m := Build(generatedIndex(300))
	full := m.Text(1 << 30)
	text := m.Text(0)
	golden.Check(t, "testdata/gen300.txt.golden", []byte(text))
	if n := utf8.RuneCountInString(full); n <= DefaultBudget {
		t.Fatalf("the whole map is %d characters, no folding to test", n)
	}
	if !strings.Contains(text, "\n  table accounts(") {
		t.Errorf("the folded map lost the users table")
	}
	for _, want := range []string{"project generated", "engine mail from", "(folded: "} {
		if !strings.Contains(text, want) {
			t.Errorf("the folded map has no %q", want)
		}
	}
}

// TestBudgets holds every budget: the text fits, and a larger budget
// shows at least as many definitions.
func TestBudgets(t *testing.T) {
	m := Build(generatedIndex(300))
	prev := -1
	for _, budget := range []int{300, 1000, 4000, 8000, 20000, 60000} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			text := m.Text(budget)
			if n := utf8.RuneCountInString(text); n > budget {
				t.Errorf("%d characters, over the budget", n)
			}
			shown := 0
			for _, l := range strings.Split(text, "\n") {
				if strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "  … ") {
					shown++
				}
			}
			if shown < prev {
				t.Errorf("%d definitions shown, fewer than %d at a smaller budget", shown, prev)
			}
			prev = shown
		})
	}
}

// TestUnfolded: a map within its budget is the whole map, unmarked.
func TestUnfolded(t *testing.T) {
	m := Build(shopIndex(t))
	text := m.Text(0)
	if strings.Contains(text, "folded") || strings.Contains(text, "…") {
		t.Errorf("the shop map was folded:\n%s", text)
	}
	for _, f := range m.Files {
		if !strings.Contains(text, f.Path+"\n") {
			t.Errorf("%s missing", f.Path)
		}
		for _, d := range f.Definitions {
			if !strings.Contains(text, " "+d.Name) {
				t.Errorf("%s missing", d.Name)
			}
		}
	}
}

func TestColumnText(t *testing.T) {
	tests := []struct {
		col  Column
		want string
	}{
		{Column{Name: "buyer", Type: "ref", Ref: "users"}, "buyer→users"},
		{Column{Name: "parent", Type: "ref", Ref: "categories", Optional: true}, "parent→categories?"},
		{Column{Name: "note", Type: "text", Optional: true, Private: true}, "note text? private"},
		{Column{Name: "status", Type: "choice", Choices: []string{"new", "paid"}, Default: "new"}, "status choice(new|paid)=new"},
		{Column{Name: "stock", Type: "int", Default: float64(0)}, "stock int=0"},
		{Column{Name: "email", Type: "text", Unique: true}, "email text unique"},
		{Column{Name: "unitPrice", Type: "money", Was: []string{"price", "itemPrice"}}, "unitPrice money was price|itemPrice"},
	}
	for _, tt := range tests {
		if got := columnList([]Column{tt.col}); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.col.Name, got, tt.want)
		}
	}
}

func BenchmarkBuild(b *testing.B) {
	ix := generatedIndex(1000)
	Build(ix) // the index computes its code analysis once, on first use
	b.ReportAllocs()
	for b.Loop() {
		Build(ix)
	}
}

func BenchmarkText(b *testing.B) {
	m := Build(generatedIndex(1000))
	b.ReportAllocs()
	for b.Loop() {
		m.Text(0)
	}
}

func BenchmarkJSON(b *testing.B) {
	m := Build(generatedIndex(1000))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(m); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBounded holds the data of a folded map to its text: the same
// definitions, every other one counted, and its JSON within 4× the
// text's bytes; a map that fits is itself.
func TestBounded(t *testing.T) {
	m := Build(generatedIndex(300))
	for _, budget := range []int{1000, 8000, 60000} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			text, data := m.Bounded(budget)
			if text != m.Text(budget) {
				t.Errorf("the text differs from Text(%d)", budget)
			}
			if data.Fold == nil {
				t.Fatalf("no fold on a folded map")
			}
			shown, lines, more := 0, 0, 0
			for _, f := range data.Files {
				shown += len(f.Definitions)
				more += f.More
				if !strings.Contains(text, f.Path+"\n") {
					t.Errorf("%s in the data, not in the text", f.Path)
				}
			}
			for _, l := range strings.Split(text, "\n") {
				if strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "  … ") {
					lines++
				}
			}
			hidden := 0
			for _, h := range data.Fold.Hidden {
				hidden += h.Definitions
			}
			if shown != lines || shown != data.Fold.Shown {
				t.Errorf("%d definitions in the data, %d in the text, fold says %d", shown, lines, data.Fold.Shown)
			}
			if shown+more+hidden != data.Fold.Total {
				t.Errorf("%d shown + %d more + %d hidden, want the total %d", shown, more, hidden, data.Fold.Total)
			}
			out, err := json.Marshal(data)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) > 4*len(text) {
				t.Errorf("the data is %d bytes, over 4× the text's %d", len(out), len(text))
			}
		})
	}
	small := Build(shopIndex(t))
	if _, data := small.Bounded(0); data != small {
		t.Errorf("the shop map, within its budget, was bounded")
	}
}

// TestUnder narrows a map to a folder or a file.
func TestUnder(t *testing.T) {
	m := Build(generatedIndex(300))
	for _, tc := range []struct {
		path string
		want func(string) bool
	}{
		{"tables", func(p string) bool { return strings.HasPrefix(p, "tables/") }},
		{"tables/", func(p string) bool { return strings.HasPrefix(p, "tables/") }},
		{"./project.ts", func(p string) bool { return p == "project.ts" }},
		{"", func(string) bool { return true }},
		{"nowhere", func(string) bool { return false }},
	} {
		got := m.Under(tc.path)
		n := 0
		for _, f := range m.Files {
			if tc.want(f.Path) {
				n++
			}
		}
		if len(got.Files) != n {
			t.Errorf("Under(%q): %d files, want %d", tc.path, len(got.Files), n)
		}
		for _, f := range got.Files {
			if !tc.want(f.Path) {
				t.Errorf("Under(%q) has %s", tc.path, f.Path)
			}
		}
	}
}
