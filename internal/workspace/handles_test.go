package workspace

import (
	"testing"
)

// TestRunnerKeptUntilClose: the runner is made once and kept for the
// workspace (its test database stays open between runs), and Close
// closes it and lets it go.
func TestRunnerKeptUntilClose(t *testing.T) {
	w, _ := openCopy(t)
	first, err := w.Runner()
	if err != nil {
		t.Fatal(err)
	}
	if again, err := w.Runner(); err != nil || again != first {
		t.Errorf("a second Runner() = %p, %v; want the first one, %p", again, err, first)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.run != nil {
		t.Error("Close kept the runner")
	}
	if w.RunningBrowser() != nil {
		t.Error("a browser runs though no picture was taken")
	}
}
