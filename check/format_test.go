package check

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/golden"
)

// formatFindings checks the project of testdata/formats/project.txt.
func formatFindings(t *testing.T) []diag.Finding {
	t.Helper()
	ix := definitions.FromFiles(context.Background(), readCase(t, "testdata/formats/project.txt"))
	fs := Run(context.Background(), ix, Options{})
	if len(fs) < 3 {
		t.Fatalf("want at least 3 findings to show, got:\n%s", Text(fs))
	}
	return fs
}

// TestFormats holds each form to its golden, written with the files' text
// at hand as the CLI writes it (fingerprints from the lines, rdjson columns
// in bytes). JUnit lists every rule, so its golden is made with the rules
// of the findings and one more that passes, and stays the same when rules
// are added (TestJUnitStructure checks the whole list).
func TestFormats(t *testing.T) {
	fs := formatFindings(t)
	files := readCase(t, "testdata/formats/project.txt")
	r := Report{Findings: fs, Version: "test", Source: func(p string) []byte { return files[p] }}
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if format == "junit" {
				out, err := junitXML(fs, rulesOf(t, diag.T1001, diag.T2003, diag.T2505, diag.T2603))
				if err != nil {
					t.Fatal(err)
				}
				b.Write(out)
			} else if err := WriteReport(&b, format, r); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "testdata/formats/"+format+".golden", b.Bytes())
		})
	}
}

// rulesOf returns the rules of the codes given.
func rulesOf(t *testing.T, codes ...string) []Rule {
	t.Helper()
	var out []Rule
	for _, r := range Rules() {
		if slices.Contains(codes, r.Code) {
			out = append(out, r)
		}
	}
	if len(out) != len(codes) {
		t.Fatalf("rules of %v: found %d", codes, len(out))
	}
	return out
}

func TestWriteUnknownFormat(t *testing.T) {
	err := Write(&bytes.Buffer{}, "xml", nil, "")
	te, ok := err.(*diag.ToolError)
	if !ok || te.Code != diag.T9102 {
		t.Fatalf("want a T9102 tool error, got %v", err)
	}
}

func TestNoFindings(t *testing.T) {
	cases := map[string]string{
		"text":   "no findings\n",
		"json":   "{\n  \"findings\": []\n}\n",
		"github": "",
		"gitlab": "[]\n",
		"rdjson": "{\n  \"source\": {\n    \"name\": \"tent-tools\"\n  },\n  \"diagnostics\": []\n}\n",
	}
	for format, want := range cases {
		var b bytes.Buffer
		if err := Write(&b, format, nil, ""); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("%s: got %q, want %q", format, b.String(), want)
		}
	}
}

func TestSARIFValidates(t *testing.T) {
	schema := compileSARIFSchema(t)
	for name, fs := range map[string][]diag.Finding{
		"findings": formatFindings(t),
		"none":     nil,
		// A finding without a position (a missing file) and one of a code
		// that no rule describes must still make a valid log.
		"edges": {
			{Code: diag.T2009, Severity: diag.Error, Path: "project.ts", Message: "project.ts is missing"},
			{Code: "T2999", Severity: diag.Info, Path: "a b/ü.ts", Line: 2, Col: 3, EndLine: 2, EndCol: 3, Message: "x"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := SARIF(fs, "1.0.0")
			if err != nil {
				t.Fatal(err)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(doc); err != nil {
				t.Fatalf("SARIF output does not validate:\n%v\n%s", err, out)
			}
			if name == "edges" && !bytes.Contains(out, []byte(`"uri": "a%20b/%C3%BC.ts"`)) {
				t.Errorf("a path with a space and a non-ASCII letter is not percent-encoded:\n%s", out)
			}
		})
	}
}

// TestSARIFSchemaRejects shows that the validation can fail: a result
// without its message is no SARIF.
func TestSARIFSchemaRejects(t *testing.T) {
	schema := compileSARIFSchema(t)
	out, err := SARIF(formatFindings(t), "")
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(out), `"message"`, `"mesage"`, 1)
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(broken))
	if err != nil {
		t.Fatal(err)
	}
	if schema.Validate(doc) == nil {
		t.Fatal("a result without a message validated")
	}
}

// compileSARIFSchema compiles the SARIF 2.1.0 schema shipped in the repo's
// testdata, with formats (uri, uri-reference) asserted.
func compileSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	const path = "../testdata/sarif/sarif-schema-2.1.0.json"
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
