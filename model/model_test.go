package model_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/golden"
	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/model"
)

// TestSamples writes the model of each sample project as a golden.
func TestSamples(t *testing.T) {
	for _, name := range []string{"shop", "refactor-style", "refactor-basic", "screens"} {
		t.Run(name, func(t *testing.T) {
			files := sample.Load(t, filepath.Join("..", "testdata", "projects", name))
			ix := definitions.FromFiles(context.Background(), files)
			m := model.Build(ix, model.Options{Version: 7, Findings: model.CountFindings(check.Run(context.Background(), ix, check.Options{}))})
			got, err := json.MarshalIndent(m, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", name+".json"), append(got, '\n'))
		})
	}
}

// TestEncodings: a position counts UTF-16 units by default and bytes in
// UTF-8, and every list is present where empty.
func TestEncodings(t *testing.T) {
	files := map[string][]byte{
		"project.ts":  []byte("import { project } from 'tent'\nexport default project({ name: 'x' })\n"),
		"tables/t.ts": []byte("import { table, text } from 'tent'\n// é😀\nexport const t = table({ columns: { /* é😀 */ a: text() } })\n"),
	}
	ix := definitions.FromFiles(context.Background(), files)
	cases := []struct {
		enc  model.Encoding
		char int
	}{{model.UTF16, 46}, {model.UTF8, 49}} // é is 1 unit and 2 bytes, 😀 2 units and 4 bytes
	for _, c := range cases {
		m := model.Build(ix, model.Options{Encoding: c.enc})
		col := m.Tables[0].Columns[0]
		if col.Range.Start.Line != 2 || col.Range.Start.Character != c.char {
			t.Errorf("encoding %d: column a at %+v, want line 2 character %d", c.enc, col.Range.Start, c.char)
		}
	}
	m := model.Build(ix, model.Options{})
	got, _ := json.Marshal(m.Tables[0])
	want := `{"name":"t","path":"tables/t.ts","range":{"start":{"line":2,"character":0},"end":{"line":2,"character":60}},"nameRange":{"start":{"line":2,"character":13},"end":{"line":2,"character":14}},"columns":[{"name":"a","type":"text","ref":null,"values":null,"optional":false,"private":false,"unique":false,"default":null,"was":[],"range":{"start":{"line":2,"character":46},"end":{"line":2,"character":55}}}],"indexes":[],"removed":[],"was":[],"rows":0}`
	if string(got) != want {
		t.Errorf("table\n got %s\nwant %s", got, want)
	}
}

// BenchmarkModel: the model of a 1,000-table project from a warm index,
// made and encoded as JSON (what tent/model answers).
func BenchmarkModel(b *testing.B) {
	ix := definitions.FromFiles(context.Background(), projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1}))
	model.Build(ix, model.Options{}) // the index's lazy views, made once
	b.ResetTimer()
	for range b.N {
		m := model.Build(ix, model.Options{})
		if _, err := json.Marshal(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkModelWarm: tent/model asked again of an unchanged snapshot
// (the server's Cache).
func BenchmarkModelWarm(b *testing.B) {
	ix := definitions.FromFiles(context.Background(), projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1}))
	var c model.Cache
	if _, err := c.JSON(ix, model.Options{}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := c.JSON(ix, model.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
