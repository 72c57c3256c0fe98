//go:build linux && amd64

package definitions

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestLayoutsOfVendoredTreeSitter guards the copy of tree-sitter's
// private structures in flatten_linux_amd64.go: it holds the
// go-tree-sitter of go.mod to the version the layouts were copied from,
// and the headers they were copied from (subtree.h, tree.h, parser.h,
// language.h, api.h) to their hashes then. An upgrade fails here until
// the layouts are compared with the new headers and these pins moved.
// (The walk keeps its runtime check too: directWalkWorks.)
func TestLayoutsOfVendoredTreeSitter(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-json", "github.com/smacker/go-tree-sitter").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	var mod struct{ Version, Dir string }
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatal(err)
	}
	if mod.Version != layoutsCopiedFrom {
		t.Fatalf("go-tree-sitter is %s; flatten_linux_amd64.go copies the layouts of %s: compare them with the new headers, then move layoutsCopiedFrom and the hashes here", mod.Version, layoutsCopiedFrom)
	}
	want := map[string]string{
		"subtree.h":  "6c564213d296010e1a3bf153eb8cb46efb3b1e901c96a6cb35892c41ef7eb4f9",
		"tree.h":     "edc059204e59d97c7d59c281133a869fbe4f76c3ec04dbda72f3c418cd384410",
		"parser.h":   "a3eb18ef034b3f4255b965a26caa276f9cfe13a79573b402f1a12dc5018052aa",
		"language.h": "cb80864a4aa82561cd7dd85b31aa9e9d4152b965e5c76753768ef577de652c9a",
		"api.h":      "4fdb80dc0aeb9c43664dc8a32d3771d19fa8ffed004ba4487a439ec95bb844e7",
	}
	for name, hash := range want {
		data, err := os.ReadFile(filepath.Join(mod.Dir, name))
		if err != nil {
			t.Fatalf("the vendored %s: %v", name, err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != hash {
			t.Errorf("%s of go-tree-sitter %s is not the header the layouts were copied from (sha256 %s): compare the layouts", name, mod.Version, got)
		}
	}
}
