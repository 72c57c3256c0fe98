package parser

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/testneed"
)

// TestBuildWithoutCgo builds the command with cgo off: the build fails with
// one line that says what is needed, not tree-sitter's pages of errors.
func TestBuildWithoutCgo(t *testing.T) {
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		testneed.Missing(t, "the go command is needed: %v", err)
	}
	cmd := exec.Command(goTool, "build", "-o", os.DevNull, "../cmd/tent-tools")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("the build without cgo succeeded")
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "needs-cgo-and-a-C-compiler/build-with-CGO_ENABLED-1") {
		t.Errorf("the build without cgo printed:\n%s", out)
	}
}
