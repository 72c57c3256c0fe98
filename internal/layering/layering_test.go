package layering

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/tent-tools/tent-tools/"

// rule says who alone may import a package: an import of a path with the
// prefix (or of the path itself) is allowed only in the packages named by
// may (a name ending in "/..." holds its subpackages).
type rule struct {
	what   string
	prefix string
	may    []string
}

// The rules of ARCHITECTURE.md, each an "Architecture invariant" there.
var rules = []rule{
	{"only tools is the door to the state", module + "internal/workspace", []string{"tools", "internal/workspace/..."}},
	{"only lsp knows the language server protocol", "go.lsp.dev/", []string{"lsp/..."}},
	{"only mcp knows the Model Context Protocol", "github.com/modelcontextprotocol/", []string{"mcp/..."}},
	{"only shot drives the browser", "github.com/chromedp/", []string{"shot/..."}},
	{"only parser, definitions and rename read trees", "github.com/smacker/go-tree-sitter", []string{"parser", "definitions", "rename"}},
	{"only runner runs app code", "github.com/dop251/goja", []string{"runner/..."}},
	{"only runner bundles app code (studio/web/build bundles the studio's own page)", "github.com/evanw/esbuild", []string{"runner/...", "studio/web/build"}},
	{"only sqlitefile opens SQLite", "modernc.org/sqlite", []string{"internal/sqlitefile"}},
	{"only the stores open databases", module + "internal/sqlitefile", []string{"history", "notes", "runner/...", "internal/workspace"}},
	{"the faces stand on tools and host: nothing below imports them", module + "host", []string{"mcp/...", "cmd/..."}},
	{"nothing imports a face (but studio, the face that serves lsp to its page)", module + "lsp", []string{"cmd/...", "studio"}},
	{"nothing imports a face", module + "studio", []string{"cmd/..."}},
	{"nothing imports a face", module + "mcp", []string{"cmd/..."}},
	{"the engine never imports the door", module + "tools", []string{"host", "remote/...", "lsp/...", "mcp/...", "cmd/..."}},
}

func (r rule) covers(path string) bool {
	return path == strings.TrimSuffix(r.prefix, "/") || strings.HasPrefix(path, r.prefix) ||
		strings.HasPrefix(path, strings.TrimSuffix(r.prefix, "/")+"/")
}

func (r rule) allows(pkg string) bool {
	for _, m := range r.may {
		if pkg == m || strings.HasSuffix(m, "/...") && (pkg == strings.TrimSuffix(m, "/...") || strings.HasPrefix(pkg, strings.TrimSuffix(m, "..."))) {
			return true
		}
	}
	return false
}

// TestLayering holds every package's imports (not its tests') to the rules.
func TestLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		pkg := strings.TrimPrefix(fields[0], module)
		seen[pkg] = true
		for _, imp := range fields[1:] {
			for _, r := range rules {
				if r.covers(imp) && !r.allows(pkg) && strings.TrimPrefix(imp, module) != pkg {
					t.Errorf("%s imports %s: %s", pkg, imp, r.what)
				}
			}
		}
	}
	for _, must := range []string{"tools", "internal/workspace", "lsp", "mcp", "host", "cmd/tent-tools"} {
		if !seen[must] {
			t.Errorf("go list did not list %s", must)
		}
	}
}

// TestRulesBite: each rule refuses an import it is there to refuse.
func TestRulesBite(t *testing.T) {
	tests := []struct{ pkg, imp string }{
		{"lsp", module + "internal/workspace"},
		{"mcp", "go.lsp.dev/protocol"},
		{"check", "github.com/smacker/go-tree-sitter"},
		{"tools", module + "host"},
		{"check", module + "tools"},
	}
	for _, tt := range tests {
		refused := false
		for _, r := range rules {
			if r.covers(tt.imp) && !r.allows(tt.pkg) {
				refused = true
			}
		}
		if !refused {
			t.Errorf("no rule refuses %s importing %s", tt.pkg, tt.imp)
		}
	}
}
