package ops_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/golden"
	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/ops"
)

// testCase is one case of testdata/cases.json: operations on a sample
// project, whose diff (or refusal) is the golden testdata/golden/NAME.
type testCase struct {
	Name    string            `json:"name"`
	Project string            `json:"project"`
	Ops     []json.RawMessage `json:"ops"`
}

func loadCases(t *testing.T) []testCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []testCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestGoldens plans each case and writes its diff, or its refusal: a
// case named refuse-* must be refused, any other planned; the diff
// shows that only the lines an op must change change.
func TestGoldens(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			files := sample.Load(t, filepath.Join("..", "testdata", "projects", c.Project))
			ix := definitions.FromFiles(context.Background(), files)
			var out string
			list, err := ops.Decode(c.Ops)
			var res *ops.Result
			if err == nil {
				res, err = ops.Plan(context.Background(), ix, list)
			}
			if strings.HasPrefix(c.Name, "refuse-") {
				if err == nil {
					t.Fatalf("planned; want a refusal")
				}
				data, _ := json.MarshalIndent(err, "", "  ")
				out = string(data) + "\n"
			} else {
				if err != nil {
					t.Fatal(err)
				}
				out, err = res.Set.Diff(func(p string) []byte { return files[p] })
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range res.Index().Findings() {
					t.Errorf("the texts after the ops read with a finding: %s", f.Message)
				}
			}
			ext := ".diff"
			if strings.HasPrefix(c.Name, "refuse-") {
				ext = ".json"
			}
			golden.Check(t, filepath.Join("testdata", "golden", c.Name+ext), []byte(out))
		})
	}
}

// TestMoveKeepsComments: the comment lines above a column move with it.
func TestMoveKeepsComments(t *testing.T) {
	src := "import { table, text } from 'tent'\n\nexport const t = table({\n  columns: {\n    a: text(),\n    // b is the second\n    // of them\n    b: text(), // kept\n    c: text(),\n  },\n})\n"
	for _, c := range []struct{ op, want string }{
		{`{"op": "moveColumn", "column": "t.b", "after": "c"}`,
			"import { table, text } from 'tent'\n\nexport const t = table({\n  columns: {\n    a: text(),\n    c: text(),\n    // b is the second\n    // of them\n    b: text(), // kept\n  },\n})\n"},
		{`{"op": "moveColumn", "column": "t.b", "before": "a"}`,
			"import { table, text } from 'tent'\n\nexport const t = table({\n  columns: {\n    // b is the second\n    // of them\n    b: text(), // kept\n    a: text(),\n    c: text(),\n  },\n})\n"},
	} {
		ix := definitions.FromFiles(context.Background(), map[string][]byte{"tables/t.ts": []byte(src)})
		list, err := ops.Decode([]json.RawMessage{json.RawMessage(c.op)})
		if err != nil {
			t.Fatal(err)
		}
		res, err := ops.Plan(context.Background(), ix, list)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(res.Index().File("tables/t.ts").Src); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.op, got, c.want)
		}
	}
}

// TestTypeChangeDropsUnusedImport: a builder the file no longer calls
// leaves its import, one name a line or all on one.
func TestTypeChangeDropsUnusedImport(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"import {\n  table,\n  money,\n  text,\n} from 'tent'\n\nexport const t = table({ columns: { a: money() } })\n",
			"import {\n  table,\n  text,\n  int,\n} from 'tent'\n\nexport const t = table({ columns: { a: int() } })\n"},
		{"import { table, text, money } from 'tent'\n\nexport const t = table({ columns: { a: money(), b: text() } })\n",
			"import { table, text, int } from 'tent'\n\nexport const t = table({ columns: { a: int(), b: text() } })\n"},
		{"import { table, money } from 'tent'\n\nexport const t = table({ columns: { a: money(), b: money() } })\n",
			"import { table, money, int } from 'tent'\n\nexport const t = table({ columns: { a: int(), b: money() } })\n"},
	} {
		ix := definitions.FromFiles(context.Background(), map[string][]byte{"tables/t.ts": []byte(c.src)})
		list, _ := ops.Decode([]json.RawMessage{json.RawMessage(`{"op": "setColumn", "column": "t.a", "type": "int"}`)})
		res, err := ops.Plan(context.Background(), ix, list)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(res.Index().File("tables/t.ts").Src); got != c.want {
			t.Errorf("\n%s\nwant\n%s", got, c.want)
		}
	}
}

// TestCRLF: a CRLF file stays CRLF whatever the operations write into it.
func TestCRLF(t *testing.T) {
	crlf := func(s string) []byte { return []byte(strings.ReplaceAll(s, "\n", "\r\n")) }
	files := map[string][]byte{
		"tables/t.ts":     crlf("import { table, text } from 'tent'\n\nexport const t = table({\n  columns: {\n    // a first\n    a: text(),\n    b: text(),\n  },\n})\n"),
		"testdata/t.json": crlf("[\n  {\n    \"id\": \"t1\",\n    \"a\": \"x\",\n    \"b\": \"y\"\n  }\n]\n"),
	}
	ix := definitions.FromFiles(context.Background(), files)
	list, err := ops.Decode([]json.RawMessage{
		json.RawMessage(`{"op": "addColumn", "table": "t", "name": "n", "type": "int", "default": 1}`),
		json.RawMessage(`{"op": "moveColumn", "column": "t.a", "after": "n"}`),
		json.RawMessage(`{"op": "addRow", "table": "t", "row": {"a": "p", "b": "q"}}`),
		json.RawMessage(`{"op": "addTable", "name": "u", "path": "tables/t.ts", "columns": {"c": {"type": "bool"}}}`),
		json.RawMessage(`{"op": "addIndex", "table": "t", "columns": ["a"]}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ops.Plan(context.Background(), ix, list)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"tables/t.ts", "testdata/t.json"} {
		src := string(res.Index().File(p).Src)
		if strings.Count(src, "\n") != strings.Count(src, "\r\n") {
			t.Errorf("%s has a line end other than CRLF:\n%q", p, src)
		}
	}
	for _, f := range res.Index().Findings() {
		t.Errorf("finding %s %s", f.Code, f.Message)
	}
}

// TestAddRowLayouts: a row added to a test data file is laid out as the
// row above it: one a line or over lines, its spaces, its alignment into
// columns, the gap between rows. Each testdata/rows/NAME.json is the file
// before; testdata/golden/rows/NAME.json the file after.
func TestAddRowLayouts(t *testing.T) {
	table := "import { table, text, int } from 'tent'\n\nexport const t = table({\n  columns: {\n    name: text(),\n    n: int({ optional: true }),\n    tag: text({ optional: true }),\n  },\n})\n"
	rows := map[string]string{
		"columns":          `{"name": "Ann", "tag": "z", "n": 4}`,
		"columns-overflow": `{"name": "Zoë Quartermain", "n": 3}`,
		"key-order":        `{"id": "t3", "n": 3, "name": "Cy"}`,
	}
	names, err := filepath.Glob(filepath.Join("testdata", "rows", "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, in := range names {
		name := strings.TrimSuffix(filepath.Base(in), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			files := map[string][]byte{"tables/t.ts": []byte(table), "testdata/t.json": data}
			ix := definitions.FromFiles(context.Background(), files)
			row, ok := rows[name]
			if !ok {
				row = `{"name": "Zoë", "n": 12}`
			}
			list, err := ops.Decode([]json.RawMessage{json.RawMessage(`{"op": "addRow", "table": "t", "row": ` + row + `}`)})
			if err != nil {
				t.Fatal(err)
			}
			res, err := ops.Plan(context.Background(), ix, list)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range res.Index().Findings() {
				t.Errorf("the file after the row reads with a finding: %s", f.Message)
			}
			golden.Check(t, filepath.Join("testdata", "golden", "rows", name+".json"), res.Index().File("testdata/t.json").Src)
		})
	}
}

// TestRowKeyLayouts: a key added to rows (addColumn's default, a setRow of
// a key the row lacks) is written as each row writes its keys: its colon,
// its separator on one line, its values' column over lines, and rows on
// one line that stand as a table keep their columns. Each
// testdata/rows/NAME.json is the file before; testdata/golden/rowkeys/NAME.json
// the file after.
func TestRowKeyLayouts(t *testing.T) {
	table := "import { table, text, int } from 'tent'\n\nexport const t = table({\n  columns: {\n    name: text(),\n    n: int({ optional: true }),\n    tag: text({ optional: true }),\n  },\n})\n"
	names, err := filepath.Glob(filepath.Join("testdata", "rows", "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, in := range names {
		name := strings.TrimSuffix(filepath.Base(in), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			files := map[string][]byte{"tables/t.ts": []byte(table), "testdata/t.json": data}
			ix := definitions.FromFiles(context.Background(), files)
			list, err := ops.Decode([]json.RawMessage{
				json.RawMessage(`{"op": "addColumn", "table": "t", "name": "flag", "type": "bool", "default": false, "after": "name"}`),
				json.RawMessage(`{"op": "addColumn", "table": "t", "name": "level", "type": "int", "default": 1}`),
				json.RawMessage(`{"op": "setRow", "table": "t", "id": "t1", "set": {"n": 7, "tag": "new"}}`),
			})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), `"t1"`) {
				list = list[:2]
			}
			res, err := ops.Plan(context.Background(), ix, list)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range res.Index().Findings() {
				t.Errorf("the file after reads with a finding: %s", f.Message)
			}
			golden.Check(t, filepath.Join("testdata", "golden", "rowkeys", name+".json"), res.Index().File("testdata/t.json").Src)
		})
	}
}

// TestSetRowKeepsColumns: a value set in rows that stand as a table, grown
// or shrunk, leaves the keys after it at their columns; one too long for
// its column pushes the rest along, and no other row changes.
func TestSetRowKeepsColumns(t *testing.T) {
	table := "import { table, text, int } from 'tent'\n\nexport const t = table({\n  columns: {\n    name: text(),\n    n: int({ optional: true }),\n    tag: text({ optional: true }),\n  },\n})\n"
	data, err := os.ReadFile(filepath.Join("testdata", "rows", "columns.json"))
	if err != nil {
		t.Fatal(err)
	}
	ix := definitions.FromFiles(context.Background(), map[string][]byte{"tables/t.ts": []byte(table), "testdata/t.json": data})
	list, err := ops.Decode([]json.RawMessage{
		json.RawMessage(`{"op": "setRow", "table": "t", "id": "t10", "set": {"name": "Al", "tag": "efghi"}}`),
		json.RawMessage(`{"op": "setRow", "table": "t", "id": "t2", "set": {"name": "Bartholomew Q.", "n": 5}}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ops.Plan(context.Background(), ix, list)
	if err != nil {
		t.Fatal(err)
	}
	want := `[
  { "id": "t1",  "name": "Zoë",      "n": 1,  "tag": "a"   },
  { "id": "t2",  "name": "Bartholomew Q.", "n": 5, "tag": "bcd" },
  { "id": "t10", "name": "Al",       "n": 3,  "tag": "efghi" }
]
`
	if got := string(res.Index().File("testdata/t.json").Src); got != want {
		t.Errorf("\n%s\nwant\n%s", got, want)
	}
}
