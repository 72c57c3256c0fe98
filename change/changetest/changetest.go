// Package changetest runs golden tests of refactors: it loads a sample
// project into memory, applies a change set to it there (never to disk),
// renders the set as a review diff with its answer, and checks that the
// result still reads: no T1xxx finding that the project did not have.
package changetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/golden"
	"github.com/tent-tools/tent-tools/internal/sample"
)

// Load reads every file of the project folder dir into a map from its
// slash-separated relative path to its text. The framework's state folder
// (.tent) is no project file and is left out: a workspace writes it in
// the background (its index cache's save renames .tent/index.new over
// .tent/index while the caller goes on), so a file listed there may be
// gone by the time it would be read.
func Load(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && d.Name() == ".tent" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatalf("load %s: %v", dir, err)
	}
	return files
}

// CRLF returns a copy of files with every LF line end made CRLF, for
// testing that edits keep a file's line ends.
func CRLF(files map[string][]byte) map[string][]byte {
	out := make(map[string][]byte, len(files))
	for p, b := range files {
		out[p] = bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
	}
	return out
}

// Project loads a sample project from dir; a name ending in "+crlf" loads
// the project before it with CRLF line ends.
func Project(t testing.TB, dir, name string) map[string][]byte {
	t.Helper()
	if base, ok := strings.CutSuffix(name, "+crlf"); ok {
		return CRLF(sample.Load(t, filepath.Join(dir, base)))
	}
	return sample.Load(t, filepath.Join(dir, name))
}

// ApplyInMemory returns files as the change set leaves them.
func ApplyInMemory(files map[string][]byte, s *change.Set) (map[string][]byte, error) {
	out := make(map[string][]byte, len(files))
	for p, b := range files {
		out[p] = b
	}
	for _, f := range s.Files {
		text, err := f.Result()
		if err != nil {
			return nil, err
		}
		delete(out, f.Path)
		out[f.NewPath()] = text
	}
	for _, d := range s.Deletes {
		delete(out, d)
	}
	return out, nil
}

// Render writes what a golden holds for a planned change: the diff of
// every changed file, then the answer as indented JSON; or, for a refusal,
// the error as tools answer it.
func Render(files map[string][]byte, s *change.Set, answer any, err error) string {
	var b strings.Builder
	if err != nil {
		body := map[string]any{"message": err.Error()}
		var te *diag.ToolError
		if errors.As(err, &te) {
			body = map[string]any{"code": te.Code, "message": te.Message}
			for k, v := range te.Data {
				body[k] = v
			}
		}
		b.Write(marshal(map[string]any{"error": body}))
		return b.String()
	}
	diff, derr := s.Diff(func(p string) []byte { return files[p] })
	if derr != nil {
		return "diff: " + derr.Error() + "\n"
	}
	b.WriteString(diff)
	b.WriteString("=== answer\n")
	b.Write(marshal(answer))
	return b.String()
}

// marshal writes v as indented JSON, with "<", ">" and "&" as they are (as
// tools answer), and a final newline.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return []byte("marshal: " + err.Error() + "\n")
	}
	return b.Bytes()
}

// Projects caches the sample projects of a test run, loaded once each.
type Projects struct {
	Dir    string // where the sample projects stand
	loaded map[string]map[string][]byte
}

// Plan makes a change set and its answer on an index; it is what a golden
// case runs.
type Plan func(ix *definitions.Index) (s *change.Set, answer any, err error)

// Golden runs one golden case: it indexes the project (see Project for
// the names), runs plan, and compares what Render writes with the golden
// file. A case whose golden name begins with "refuse-" must be refused;
// any other must plan, and the project it leaves must read (CheckReadable).
func (ps *Projects) Golden(t *testing.T, project, goldenPath string, plan Plan) {
	t.Helper()
	files := ps.loaded[project]
	if files == nil {
		files = Project(t, ps.Dir, project)
		if ps.loaded == nil {
			ps.loaded = map[string]map[string][]byte{}
		}
		ps.loaded[project] = files
	}
	s, answer, err := plan(definitions.FromFiles(context.Background(), files))
	golden.Check(t, goldenPath, []byte(Render(files, s, answer, err)))
	refuse := strings.HasPrefix(filepath.Base(goldenPath), "refuse-")
	if refuse != (err != nil) {
		t.Errorf("refused: %v; the case wants a refusal: %v", err, refuse)
	}
	if err != nil {
		return
	}
	after, err := ApplyInMemory(files, s)
	if err != nil {
		t.Fatal(err)
	}
	CheckReadable(t, files, after)
}

// CheckReadable fails t where the changed project has a T1xxx finding
// (syntax, JSON, UTF-8) that the project before had not, by code and path.
func CheckReadable(t testing.TB, before, after map[string][]byte) {
	t.Helper()
	had := map[string]bool{}
	for _, f := range definitions.FromFiles(context.Background(), before).Findings() {
		if strings.HasPrefix(f.Code, "T1") {
			had[f.Code+" "+f.Path] = true
		}
	}
	var fresh []string
	for _, f := range definitions.FromFiles(context.Background(), after).Findings() {
		if strings.HasPrefix(f.Code, "T1") && !had[f.Code+" "+f.Path] {
			fresh = append(fresh, f.String())
		}
	}
	sort.Strings(fresh)
	if len(fresh) > 0 {
		t.Errorf("the change leaves files that do not read:\n%s", strings.Join(fresh, "\n"))
	}
}
