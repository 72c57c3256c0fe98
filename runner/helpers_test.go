package runner

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/sample"
)

// project copies testdata/projects/NAME, as git tracks it, into a
// temporary folder, so tests never write into the sample projects.
func project(t testing.TB, name string) string {
	t.Helper()
	return sample.Copy(t, filepath.Join("..", "testdata", "projects", name))
}

// index builds the index of the project folder root.
func index(t testing.TB, root string) *definitions.Index {
	t.Helper()
	ix, err := definitions.Build(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// newRunner makes a Runner for root, closed when the test ends.
func newRunner(t testing.TB, root string, cfg Config) *Runner {
	t.Helper()
	r, err := New(root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// code is the tool error code of err, "" for nil, "?" for another error.
func code(err error) string {
	if err == nil {
		return ""
	}
	if te, ok := err.(*diag.ToolError); ok {
		return te.Code
	}
	return "?"
}

// decode unmarshals a JSON result for assertions.
func decode(t testing.TB, raw json.RawMessage) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("result %s: %v", raw, err)
	}
	return v
}

// yes is an Approver that says yes and counts the questions.
type yes struct{ asked int }

func (y *yes) Approve(ctx context.Context, q string) (bool, error) { y.asked++; return true, nil }

// no is an Approver that says no.
type no struct{}

func (no) Approve(ctx context.Context, q string) (bool, error) { return false, nil }

// toolError asserts that err is a tool error with the code, and answers it.
func toolError(t testing.TB, err error, want string) *diag.ToolError {
	t.Helper()
	te, ok := err.(*diag.ToolError)
	if !ok || te.Code != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
	return te
}
