package check

import (
	"context"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// TestSamplesHaveNoErrors checks the sample projects the docs and the
// other tools' tests build on (shop), and clinic, which the row flow's
// tests rename: each must be clean.
func TestSamplesHaveNoErrors(t *testing.T) {
	for _, name := range []string{"shop", "clinic"} {
		ix, err := definitions.Build(context.Background(), "../testdata/projects/"+name)
		if err != nil {
			t.Fatal(err)
		}
		if len(ix.Definitions()) == 0 {
			t.Fatalf("the %s project has no definitions", name)
		}
		fs := Run(context.Background(), ix, Options{})
		for _, f := range fs {
			if f.Severity == diag.Error {
				t.Errorf("%s: %s", name, f)
			}
		}
	}
}

// TestGeneratedProjectIsClean checks a generated project: the benchmark
// must time a check that finds nothing, not one that reports thousands.
func TestGeneratedProjectIsClean(t *testing.T) {
	files := projectgen.Generate(projectgen.Options{Tables: 60, Seed: 1})
	fs := Run(context.Background(), definitions.FromFiles(context.Background(), files), Options{})
	for _, f := range fs {
		t.Errorf("generated: %s", f)
	}
}

// TestExtraFindings shows the hook for findings made elsewhere (T2011):
// they are merged and sorted with the rest.
func TestExtraFindings(t *testing.T) {
	ix := definitions.FromFiles(context.Background(), map[string][]byte{
		"project.ts": []byte("import { project } from 'tent'\nexport default project({ name: 'x' })\n"),
	})
	extra := []diag.Finding{
		{Code: diag.T2011, Severity: diag.Warning, Path: "b.ts", Line: 1, Col: 1, Message: "w"},
		{Code: diag.T2011, Severity: diag.Error, Path: "a.ts", Line: 1, Col: 1, Message: "e"},
	}
	fs := Run(context.Background(), ix, Options{Extra: extra})
	if len(fs) != 2 || fs[0].Message != "e" || fs[1].Message != "w" {
		t.Fatalf("want the extra findings, errors first; got %v", fs)
	}
	if !HasErrors(fs) || HasErrors(fs[1:]) {
		t.Error("HasErrors is wrong")
	}
}
