package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/policy"
)

// hostileTree makes a project folder "proj" beside a folder "outside" that
// no tool may reach, with links of every kind in the project.
func hostileTree(t testing.TB) (proj, outside string) {
	t.Helper()
	base := t.TempDir()
	proj = filepath.Join(base, "proj")
	outside = filepath.Join(base, "outside")
	files := map[string]string{
		"outside/secret.txt":    "secret\n",
		"proj/project.ts":       "export default project({ name: 'p' })\n",
		"proj/engine.ts":        "export default engine({})\n",
		"proj/tent.d.ts":        "// types\n",
		"proj/lib/util.ts":      "export const x = 1\n",
		"proj/.tent/state.txt":  "points\n",
		"proj/.git/config":      "[core]\n",
		"proj/tables/orders.ts": "export const orders = 1\n",
	}
	sample.Write(t, base, files)
	links := map[string]string{
		"proj/out":          "../outside",                          // a folder link that leads out
		"proj/lib/up":       "../../outside/secret.txt",            // a file link that leads out
		"proj/abs":          filepath.Join(outside, "secret.txt"),  // absolute, pointing out
		"proj/absin":        filepath.Join(proj, "lib", "util.ts"), // absolute, pointing in
		"proj/inside":       "lib",                                 // a link that stays inside
		"proj/lib/again":    "../tables/orders.ts",                 // a file link that stays inside
		"proj/eng":          "engine.ts",                           // a link to engine.ts
		"proj/state":        ".tent",                               // a link to the framework's state
		"proj/loop":         "loop",                                // a link to itself
		"proj/lib/deep/esc": "../../../outside",                    // leads out from two folders down
	}
	for name, target := range links {
		p := filepath.Join(base, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	return proj, outside
}

func TestResolve(t *testing.T) {
	proj, _ := hostileTree(t)
	w, err := Open(proj, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	withEngine, err := Open(proj, Options{Policy: &Policy{Also: []string{policy.AlsoEngine}}})
	if err != nil {
		t.Fatal(err)
	}
	defer withEngine.Close()

	tests := []struct {
		path    string
		write   bool
		ws      *Workspace
		want    string // the resolved path, or "" where refused
		message string // a part of the refusal's message
	}{
		{path: "project.ts", want: "project.ts"},
		{path: "./lib//util.ts", want: "lib/util.ts"},
		{path: "", want: "."},
		{path: ".", want: "."},
		{path: "lib/../project.ts", want: "project.ts"},
		{path: "inside/util.ts", want: "lib/util.ts"},
		{path: "lib/again", want: "tables/orders.ts"},
		{path: "inside/../project.ts", want: "project.ts"}, // ".." of the real folder lib
		{path: "new/folder/file.ts", write: true, want: "new/folder/file.ts"},
		{path: "new/../file.ts", write: true, want: "file.ts"},
		{path: "engine.ts", want: "engine.ts"},
		{path: "tent.d.ts", want: "tent.d.ts"}, // reading a framework file is fine
		{path: "engine.ts", write: true, ws: withEngine, want: "engine.ts"},
		{path: "lib/tent.d.ts", write: true, want: "lib/tent.d.ts"}, // only the root's is the framework's

		{path: "../x", message: "leads out of the project"},
		{path: "a/../../x", message: "leads out of the project"},
		{path: "lib/../../outside/secret.txt", message: "leads out of the project"},
		{path: "/etc/passwd", message: "absolute path"},
		{path: "lib/\x00util.ts", message: "NUL byte"},
		{path: `lib\util.ts`, message: "backslash"},
		{path: ".tent/state.txt", message: "framework's own state"},
		{path: ".TENT/state.txt", message: "framework's own state"},
		{path: ".Tent", message: "framework's own state"},
		{path: "state/state.txt", message: "framework's own state"},
		{path: ".git/config", message: "version history"},
		{path: "lib/.GIT/hooks/pre-commit", write: true, message: "version history"},
		{path: "Tent.D.ts", write: true, message: "written by the framework"},
		{path: "tent.clash.ts", write: true, message: "written by the framework"},
		{path: "MCP.LOCK.JSON", write: true, message: "written by the framework"},
		{path: "lib/../tent.d.ts", write: true, message: "written by the framework"},
		{path: "engine.ts", write: true, message: "policy's also"},
		{path: "Engine.TS", write: true, message: "policy's also"},
		{path: "eng", write: true, message: "policy's also"},
		{path: "inside/../engine.ts", write: true, message: "policy's also"},
		{path: "out/secret.txt", message: "leads out of the project"},
		{path: "out", message: "leads out of the project"},
		{path: "out/new.txt", write: true, message: "leads out of the project"},
		{path: "lib/up", message: "leads out of the project"},
		{path: "lib/deep/esc/secret.txt", message: "leads out of the project"},
		{path: "abs", message: "absolute path"},
		{path: "absin", message: "absolute path"},
		{path: "loop", message: "more than 40 links"},
	}
	for _, tt := range tests {
		name := tt.path
		if tt.write {
			name += " (write)"
		}
		t.Run(name, func(t *testing.T) {
			ws := tt.ws
			if ws == nil {
				ws = w
			}
			got, err := ws.Resolve(tt.path, tt.write)
			if tt.message == "" {
				if err != nil || got != tt.want {
					t.Fatalf("Resolve(%q) = %q, %v; want %q", tt.path, got, err, tt.want)
				}
				return
			}
			var te *diag.ToolError
			if !errors.As(err, &te) || te.Code != diag.T9105 {
				t.Fatalf("Resolve(%q) = %q, %v; want T9105", tt.path, got, err)
			}
			if !strings.Contains(te.Message, tt.message) {
				t.Errorf("Resolve(%q) message %q; want it to hold %q", tt.path, te.Message, tt.message)
			}
		})
	}
}
