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
