package tools

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// TestCheckKeepsAChecker runs check again and again on one workspace while
// files change on disk: from the second check on the folder keeps an
// incremental check (workspace.TestCheckIndexKeepsAChecker sees it kept),
// and each answer is the full check's of the folder as it is.
func TestCheckKeepsAChecker(t *testing.T) {
	ctx := context.Background()
	w, dir := openCopy(t, Options{})
	orders := filepath.Join(dir, "tables", "orders.ts")
	src, err := os.ReadFile(orders)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		text []byte
	}{
		{"as it is", src},
		{"a ref to no table", bytes.Replace(src, []byte("ref('users')"), []byte("ref('userz')"), 1)},
		{"put back", src},
	}
	for i, step := range steps {
		if err := os.WriteFile(orders, step.text, 0o644); err != nil {
			t.Fatal(err)
		}
		ans, err := w.Check(ctx, CheckInput{})
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		got := ans.Findings
		fresh, err := definitions.Build(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		want := check.NewAnswer(check.Run(ctx, fresh, check.Options{})).Findings
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the workspace's check answers\n%v\nwant\n%v", step.name, got, want)
		}
		if i == 1 && !slices.ContainsFunc(got, func(f diag.Finding) bool { return f.Code == diag.T2003 }) {
			t.Errorf("%s: no T2003 for ref('userz'): %v", step.name, got)
		}
	}
}
