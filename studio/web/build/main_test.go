package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tent-tools/tent-tools/internal/testneed"
)

// TestBundleIsFresh holds the committed bundle to the source: dist must be
// what a fresh build of src makes, byte for byte, or the binary ships a page
// nobody can rebuild.
func TestBundleIsFresh(t *testing.T) {
	dir := webDir()
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@dagrejs", "dagre", "package.json")); err != nil {
		testneed.Missing(t, "studio/web/node_modules is missing: run npm ci in studio/web (.ci/setup.d/70-studio-web.sh)")
	}
	files, err := bundle(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range compare(filepath.Join(dir, "dist"), files) {
		t.Error(d)
	}
	for _, name := range []string{"index.html", "app.js", "app.css", "layout.js"} {
		if len(files[name]) == 0 {
			t.Errorf("the build made no %s", name)
		}
	}
}

// TestTypes type-checks the page's TypeScript (esbuild strips the types
// without reading them): tsc, as package-lock.json pins it, over tsconfig.json.
func TestTypes(t *testing.T) {
	dir := webDir()
	tsc := filepath.Join(dir, "node_modules", "typescript", "bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		testneed.Missing(t, "studio/web/node_modules has no typescript: run npm ci in studio/web (.ci/setup.d/70-studio-web.sh)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		testneed.Missing(t, "no node to run tsc: %v", err)
	}
	cmd := exec.Command(node, tsc, "-p", dir)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
}
