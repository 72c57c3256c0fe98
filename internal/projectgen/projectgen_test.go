package projectgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/tent-tools/tent-tools/schema"
)

func TestDeterministic(t *testing.T) {
	a := Generate(Options{Tables: 120, Seed: 7})
	b := Generate(Options{Tables: 120, Seed: 7})
	if len(a) != len(b) {
		t.Fatalf("same options gave %d and %d files", len(a), len(b))
	}
	for p, src := range a {
		if !bytes.Equal(src, b[p]) {
			t.Errorf("%s differs between two runs with the same seed", p)
		}
	}
	c := Generate(Options{Tables: 120, Seed: 8})
	same := 0
	for p, src := range a {
		if p[:9] == "testdata/" && bytes.Equal(src, c[p]) {
			same++
		}
	}
	if same > 10 {
		t.Errorf("seeds 7 and 8 gave %d identical test data files; the seed is not used", same)
	}
}

func TestShape(t *testing.T) {
	tests := []struct {
		tables                   int
		minLines, maxLines       int
		flows, screens, fnsFiles int
	}{
		{tables: 1, minLines: 100, maxLines: 400, flows: 0, screens: 0, fnsFiles: 1},
		{tables: 10, minLines: 1000, maxLines: 2500, flows: 1, screens: 2, fnsFiles: 10},
		{tables: 1000, minLines: 140000, maxLines: 165000, flows: 100, screens: 200, fnsFiles: 1000},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.tables), func(t *testing.T) {
			files := Generate(Options{Tables: tt.tables, Seed: 1})
			lines, flows, screens, fns, tables, data := 0, 0, 0, 0, 0, 0
			for p, src := range files {
				lines += bytes.Count(src, []byte("\n"))
				switch {
				case strings.HasPrefix(p, "flows/"):
					flows++
				case strings.HasPrefix(p, "screens/"):
					screens++
				case strings.HasPrefix(p, "functions/"):
					fns++
				case strings.HasPrefix(p, "tables/") && p != "tables/index.ts":
					tables++
				case strings.HasPrefix(p, "testdata/"):
					data++
				}
			}
			if lines < tt.minLines || lines > tt.maxLines {
				t.Errorf("%d lines, want %d..%d", lines, tt.minLines, tt.maxLines)
			}
			if flows != tt.flows || screens != tt.screens || fns != tt.fnsFiles {
				t.Errorf("flows %d screens %d function files %d, want %d %d %d", flows, screens, fns, tt.flows, tt.screens, tt.fnsFiles)
			}
			if tables != tt.tables || data != tt.tables {
				t.Errorf("%d table files and %d test data files, want %d of each", tables, data, tt.tables)
			}
			for _, p := range []string{"project.ts", "engine.ts", "lib/notify.ts", "tables/index.ts"} {
				if files[p] == nil {
					t.Errorf("no %s", p)
				}
			}
		})
	}
}

// TestSyntax parses every generated TypeScript file with esbuild, an
// independent parser, so a generator bug cannot hide behind our own.
func TestSyntax(t *testing.T) {
	for p, src := range Generate(Options{Tables: 60, Seed: 3}) {
		loader := api.LoaderTS
		switch {
		case strings.HasSuffix(p, ".tsx"):
			loader = api.LoaderTSX
		case !strings.HasSuffix(p, ".ts"):
			continue
		}
		r := api.Transform(string(src), api.TransformOptions{Loader: loader, JSX: api.JSXPreserve})
		for _, m := range r.Errors {
			line := 0
			if m.Location != nil {
				line = m.Location.Line
			}
			t.Errorf("%s:%d: %s", p, line, m.Text)
		}
	}
}

// TestTestData checks the rendered rows against the tables the generator
// planned: every required column present, every value of its type, every
// ref naming a row that exists, ids unique.
func TestTestData(t *testing.T) {
	opts := Options{Tables: 150, Seed: 5}
	files := Generate(opts)
	specs := plan(opts.Tables, opts.Seed)
	ids := map[string]map[string]bool{}
	rows := map[string][]map[string]any{}
	for _, s := range specs {
		var rs []map[string]any
		if err := json.Unmarshal(files["testdata/"+s.name+".json"], &rs); err != nil {
			t.Fatalf("testdata/%s.json: %v", s.name, err)
		}
		rows[s.name] = rs
		ids[s.name] = map[string]bool{}
		for _, r := range rs {
			id, _ := r["id"].(string)
			if id == "" || ids[s.name][id] {
				t.Errorf("%s: missing or duplicate id %q", s.name, id)
			}
			ids[s.name][id] = true
		}
	}
	for _, s := range specs {
		for i, r := range rows[s.name] {
			for _, c := range s.cols {
				v, ok := r[c.name]
				if !ok {
					if c.required() {
						t.Errorf("%s row %d: required column %s missing", s.name, i, c.name)
					}
					continue
				}
				sc := &schema.Column{Name: c.name, Type: schema.Type(c.typ), Ref: c.ref, Choices: c.choices, Optional: c.optional}
				if err := schema.CheckValue(sc, v); err != nil {
					t.Errorf("%s row %d: %v", s.name, i, err)
				}
				if ref, isStr := v.(string); c.typ == "ref" && isStr && !ids[c.ref][ref] {
					t.Errorf("%s row %d: %s names %q, which %s has not", s.name, i, c.name, ref, c.ref)
				}
			}
			for k := range r {
				if k != "id" && s.col(k) == nil {
					t.Errorf("%s row %d: unknown column %s", s.name, i, k)
				}
			}
		}
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	files := Generate(Options{Tables: 12, Seed: 1})
	if err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
	for p, src := range files {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, src) {
			t.Errorf("%s written differently", p)
		}
	}
}

// TestPlanLarge plans the largest project the benchmarks make (10,000
// tables, scripts/bench/lsp.sh) without rendering it: every table's name
// and its functions' names unique, and every ref naming a planned table.
func TestPlanLarge(t *testing.T) {
	specs := plan(10000, 1)
	names := map[string]bool{}
	for _, s := range specs {
		for _, n := range []string{s.name, createName(s), listName(s)} {
			if names[n] {
				t.Fatalf("%s is named twice", n)
			}
			names[n] = true
		}
	}
	for _, s := range specs {
		for _, r := range s.refs {
			if !names[r] {
				t.Errorf("%s has a ref to %s, which is not planned", s.name, r)
			}
		}
	}
	if len(specs) != 10000 || specs[0].name != hub {
		t.Errorf("%d tables, the first %s; want 10000, the first %s", len(specs), specs[0].name, hub)
	}
}
