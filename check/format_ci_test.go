package check

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tent-tools/tent-tools/diag"
)

// compileGitLabSchema compiles the shape of GitLab's Code Quality report,
// written from GitLab's documentation into testdata (its $comment names
// the source).
func compileGitLabSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/gitlab/code-quality-report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("code-quality-report.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("code-quality-report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGitLabValidates(t *testing.T) {
	schema := compileGitLabSchema(t)
	files := readCase(t, "testdata/formats/project.txt")
	for name, r := range map[string]Report{
		"findings":         {Findings: formatFindings(t), Source: func(p string) []byte { return files[p] }},
		"findings no text": {Findings: formatFindings(t)},
		"none":             {},
		// A finding without a position, an info, and two findings alike
		// on two lines that read the same.
		"edges": {Findings: []diag.Finding{
			{Code: diag.T2009, Severity: diag.Error, Path: "project.ts", Message: "project.ts is missing"},
			{Code: "T2999", Severity: diag.Info, Path: "a.ts", Line: 2, Col: 3, EndLine: 2, EndCol: 4, Message: "x"},
			{Code: "T2999", Severity: diag.Info, Path: "a.ts", Line: 3, Col: 3, EndLine: 3, EndCol: 4, Message: "x"},
		}, Source: func(string) []byte { return []byte("a\nb\nb\n") }},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := GitLab(r)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(doc); err != nil {
				t.Fatalf("the GitLab report does not fit GitLab's shape:\n%v\n%s", err, out)
			}
			// GitLab tells issues apart by fingerprint: they must differ.
			var issues []struct{ Fingerprint string }
			if err := json.Unmarshal(out, &issues); err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, is := range issues {
				if seen[is.Fingerprint] {
					t.Errorf("fingerprint %s stands twice:\n%s", is.Fingerprint, out)
				}
				seen[is.Fingerprint] = true
			}
		})
	}
}

// TestGitLabSchemaRejects shows that the shape can fail: a severity that
// GitLab does not know, and an issue without its line.
func TestGitLabSchemaRejects(t *testing.T) {
	schema := compileGitLabSchema(t)
	out, err := GitLab(Report{Findings: formatFindings(t)})
	if err != nil {
		t.Fatal(err)
	}
	for name, broken := range map[string]string{
		"severity": strings.Replace(string(out), `"critical"`, `"error"`, 1),
		"no lines": strings.Replace(string(out), `"lines"`, `"line"`, 1),
	} {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(broken))
		if err != nil {
			t.Fatal(err)
		}
		if schema.Validate(doc) == nil {
			t.Errorf("%s: a broken report fits the shape", name)
		}
	}
}

// TestFingerprints: the same report gives the same fingerprints; lines
// added above a finding, its code moved into another file, or its line
// indented again, keep it;
// editing its line, or its message, makes a new one; findings alike on
// lines alike differ by their rank.
func TestFingerprints(t *testing.T) {
	finding := func(line int, msg string) diag.Finding {
		return diag.Finding{Code: diag.T2003, Severity: diag.Error, Path: "tables/orders.ts", Line: line, Col: 20, EndLine: line, EndCol: 24, Message: msg}
	}
	print := func(src string, fs ...diag.Finding) []string {
		return Fingerprints(Report{Findings: fs, Source: func(string) []byte { return []byte(src) }})
	}
	const src = "a\n  buyer: ref('user'),\n"
	base := print(src, finding(2, "orders.buyer: ref('user') names no table"))[0]
	if again := print(src, finding(2, "orders.buyer: ref('user') names no table"))[0]; again != base {
		t.Errorf("the same report gives another fingerprint: %s, then %s", base, again)
	}
	tests := []struct {
		name string
		src  string
		f    diag.Finding
		same bool
	}{
		{"moved down", "a\nb\nc\n  buyer: ref('user'),\n", finding(4, "orders.buyer: ref('user') names no table"), true},
		{"into another file", "a\n  buyer: ref('user'),\n", func() diag.Finding {
			f := finding(2, "orders.buyer: ref('user') names no table")
			f.Path = "tables/shop.ts"
			return f
		}(), true},
		{"indented again", "a\n\tbuyer:   ref('user'),\n", finding(2, "orders.buyer: ref('user') names no table"), true},
		{"line edited", "a\n  buyer: ref('user'), // who buys\n", finding(2, "orders.buyer: ref('user') names no table"), false},
		{"other message", src, finding(2, "orders.buyer: ref('user') names no table; did you mean users?"), false},
	}
	for _, tt := range tests {
		if got := print(tt.src, tt.f)[0]; (got == base) != tt.same {
			t.Errorf("%s: same fingerprint %v, want %v", tt.name, got == base, tt.same)
		}
	}
	// A place named in a message loses its line and column.
	a := print("", diag.Finding{Code: diag.T2001, Path: "t.ts", Line: 8, Message: "users.name is declared twice (first at tables/users.ts:6:5)"})
	b := print("", diag.Finding{Code: diag.T2001, Path: "t.ts", Line: 9, Message: "users.name is declared twice (first at tables/users.ts:7:5)"})
	if a[0] != b[0] {
		t.Error("a place named in the message changes the fingerprint when it moves")
	}
	twins := print("x\nx\n", finding(1, "m"), finding(2, "m"))
	if twins[0] == twins[1] {
		t.Error("two findings alike on lines alike share a fingerprint")
	}
}

func TestRDJSONColumnsCountBytes(t *testing.T) {
	src := "const name = 'Zoë'; ref('ordr')\n"
	f := diag.Finding{Code: diag.T2003, Severity: diag.Error, Path: "a.ts", Line: 1, Col: 26, EndLine: 1, EndCol: 30, Message: "m",
		Fix: &diag.Fix{Title: "Refer to orders", Path: "a.ts", Start: 26, End: 30, Text: "orders"}}
	for name, tt := range map[string]struct {
		source      func(string) []byte
		col         int
		suggestions int
	}{
		"with text":    {func(string) []byte { return []byte(src) }, 27, 1},
		"without text": {nil, 26, 0},
	} {
		out, err := RDJSON(Report{Findings: []diag.Finding{f}, Source: tt.source})
		if err != nil {
			t.Fatal(err)
		}
		var r rdResult
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatal(err)
		}
		d := r.Diagnostics[0]
		if d.Location.Range.Start.Column != tt.col || len(d.Suggestions) != tt.suggestions {
			t.Errorf("%s: column %d with %d suggestions, want %d with %d:\n%s", name, d.Location.Range.Start.Column, len(d.Suggestions), tt.col, tt.suggestions, out)
		}
		if tt.suggestions > 0 && (d.Suggestions[0].Range.Start != rdPosition{Line: 1, Column: 27} || d.Suggestions[0].Range.End != rdPosition{Line: 1, Column: 31}) {
			t.Errorf("%s: the fix's range is %+v, want bytes 27 to 31 of line 1", name, d.Suggestions[0].Range)
		}
	}
}

// TestJUnitStructure reads the JUnit report back: a test case per rule of
// the check, each named once, a failure per finding in its rule's case
// (typed by severity), and counts that agree.
func TestJUnitStructure(t *testing.T) {
	fs := append(formatFindings(t), diag.Finding{Code: "T2999", Severity: diag.Info, Path: "a.ts", Line: 1, Col: 1, EndLine: 1, EndCol: 2, Message: "a code no rule describes"})
	out, err := JUnit(fs)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, []byte(xml.Header)) {
		t.Errorf("no XML declaration:\n%s", out)
	}
	var report struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Suites   []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				ClassName string `xml:"classname,attr"`
				Name      string `xml:"name,attr"`
				Failures  []struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	dec := xml.NewDecoder(bytes.NewReader(out))
	dec.Strict = true
	if err := dec.Decode(&report); err != nil {
		t.Fatalf("not XML: %v\n%s", err, out)
	}
	if len(report.Suites) != 1 {
		t.Fatalf("%d suites, want 1", len(report.Suites))
	}
	suite := report.Suites[0]
	if want := len(Rules()) + 1; len(suite.Cases) != want || suite.Tests != want || report.Tests != want {
		t.Errorf("%d cases (tests=%d, %d), want one per rule and one for T2999: %d", len(suite.Cases), suite.Tests, report.Tests, want)
	}
	perCode := map[string]int{}
	for _, f := range fs {
		perCode[f.Code]++
	}
	names, failed := map[string]bool{}, 0
	for _, c := range suite.Cases {
		if names[c.Name] || c.ClassName == "" {
			t.Errorf("case %q: named twice, or without a class", c.Name)
		}
		names[c.Name] = true
		code, _, _ := strings.Cut(c.Name, " ")
		if len(c.Failures) != perCode[code] {
			t.Errorf("case %q has %d failures, want %d", c.Name, len(c.Failures), perCode[code])
		}
		if len(c.Failures) > 0 {
			failed++
		}
		for _, f := range c.Failures {
			if f.Type != "error" && f.Type != "warning" && f.Type != "info" || f.Message == "" || !strings.Contains(f.Text, code) {
				t.Errorf("case %q: failure %+v", c.Name, f)
			}
		}
	}
	if suite.Failures != failed || report.Failures != failed {
		t.Errorf("failures=%d (%d), want %d: the cases that failed", suite.Failures, report.Failures, failed)
	}
}
