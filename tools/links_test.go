package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/policy"

	"github.com/tent-tools/tent-tools/internal/sample"
)

// stateLinkCalls are calls of every kind of tool: ones that only read,
// ones that write project files, and ones that keep state in .tent/ (the
// history, the notes, the runner's test database, log and cache).
var stateLinkCalls = []struct{ tool, input string }{
	{"read", `{"path": "lib/money.ts"}`},
	{"map", `{}`},
	{"check", `{}`},
	{"list", `{}`},
	{"rows", `{"table": "users"}`},
	{"run", `{"name": "listProducts"}`},
	{"reset", `{}`},
	{"logs", `{}`},
	{"history", `{}`},
	{"remember", `{"key": "k", "value": "v"}`},
	{"recall", `{"key": "k"}`},
	{"write", `{"path": "lib/new.ts", "text": "export const y = 2\n"}`},
	{"edit", `{"path": "lib/money.ts", "find": "export", "with": "export"}`},
}

// TestStateFolderLink is the attack of a .tent/ that is a link to a folder
// outside the project: every tool is refused with T9105 (its message says
// how to fix it), and nothing is written outside, nor in the project.
func TestStateFolderLink(t *testing.T) {
	for _, target := range []string{"outside", "inside"} {
		t.Run(target, func(t *testing.T) {
			base := t.TempDir()
			proj := filepath.Join(base, "proj")
			if err := sample.CopyTo(shopDir, proj); err != nil {
				t.Fatal(err)
			}
			dest := filepath.Join(base, "elsewhere")
			link := dest
			if target == "inside" {
				dest, link = filepath.Join(proj, "lib"), "lib"
			} else if err := os.Mkdir(dest, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(link, filepath.Join(proj, ".tent")); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, base)
			w, err := Open(proj, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			for _, c := range stateLinkCalls {
				_, err := call(w, c.tool, c.input)
				te := wantCode(t, err, diag.T9105)
				if te != nil && !containsAll(te.Message, ".tent", "link", "rm .tent") {
					t.Errorf("%s: the message does not say how to fix it: %s", c.tool, te.Message)
				}
			}
			assertSame(t, before, snapshot(t, base))
		})
	}
}

// TestJournalFolderLink is the attack of .tent/tmp as a link to ../lib: a
// write is refused with T9105 and the journal's cleaning removes nothing
// through the link (lib/ is intact).
func TestJournalFolderLink(t *testing.T) {
	w, dir := openCopy(t, Options{})
	// A read makes no state, so the attacker makes .tent/ themselves.
	if err := os.MkdirAll(filepath.Join(dir, ".tent"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, ".tent", "tmp")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../lib", filepath.Join(dir, ".tent", "tmp")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, filepath.Join(dir, "lib"))
	for _, c := range []struct{ tool, input string }{
		{"write", `{"path": "tables/new.ts", "text": "export const z = 1\n"}`},
		{"edit", `{"path": "lib/money.ts", "find": "export", "with": "export "}`},
		{"rename", `{"name": "users", "to": "people"}`},
	} {
		_, err := call(w, c.tool, c.input)
		wantCode(t, err, diag.T9105)
	}
	assertSame(t, before, snapshot(t, filepath.Join(dir, "lib")))
	if _, err := os.Stat(filepath.Join(dir, "tables", "new.ts")); err == nil {
		t.Error("tables/new.ts was written through a journal folder that is a link")
	}
}

// TestFrameworkFileLink: engine.ts (or a framework file) that is a link is
// refused for every tool that reads or writes it, and for reading the
// definitions, even where the policy lets engine.ts be written.
func TestFrameworkFileLink(t *testing.T) {
	for _, name := range []string{"engine.ts", "tent.d.ts"} {
		t.Run(name, func(t *testing.T) {
			w, dir := openCopy(t, Options{Policy: &Policy{Also: []string{policy.AlsoEngine}}})
			cfg := filepath.Join(dir, "lib", "engcfg.ts")
			if err := os.WriteFile(cfg, []byte("export default engine({})\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(dir, name))
			if err := os.Symlink("lib/engcfg.ts", filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, dir)
			for _, c := range []struct{ tool, input string }{
				{"write", `{"path": "` + name + `", "text": "export default engine({ allow: ['evil.example'] })\n"}`},
				{"edit", `{"path": "` + name + `", "find": "engine({})", "with": "engine({ x: 1 })"}`},
				{"read", `{"path": "` + name + `"}`},
				{"map", `{}`},
				{"check", `{}`},
				{"rows", `{"table": "users"}`},
			} {
				_, err := call(w, c.tool, c.input)
				if te := wantCode(t, err, diag.T9105); te != nil && !containsAll(te.Message, name, "link") {
					t.Errorf("%s: %s", c.tool, te.Message)
				}
			}
			after := snapshot(t, dir)
			assertSame(t, before, after)
		})
	}
}

// assertSame fails t where two snapshots of a tree differ.
func assertSame(t testing.TB, before, after map[string]string) {
	t.Helper()
	for k, v := range after {
		if b, ok := before[k]; !ok {
			t.Errorf("%s was made: %.80q", k, v)
		} else if b != v {
			t.Errorf("%s changed: %.80q -> %.80q", k, b, v)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			t.Errorf("%s was removed", k)
		}
	}
}

// containsAll reports whether s holds every one of parts.
func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
