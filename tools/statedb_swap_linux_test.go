package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/swaptest"
)

// TestSwapStateDuringOpen swaps .tent with a link to a decoy folder, whose
// history.db holds a point of its own, again and again while new
// workspaces open their history: each answers its own points or is
// refused, never the decoy's.
func TestSwapStateDuringOpen(t *testing.T) {
	ctx := context.Background()
	w, dir := openCopy(t, Options{})
	mustCall(t, w, "write", `{"path": "start.txt", "text": "the history starts"}`)
	w.Close()
	decoy := filepath.Join(t.TempDir(), "decoy") // outside the project: no file of it
	if err := os.Mkdir(decoy, 0o755); err != nil {
		t.Fatal(err)
	}
	hs, err := history.Open(ctx, filepath.Join(decoy, history.File))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hs.Record(ctx, &history.Point{Time: time.Now(), Kind: history.KindOutside, Summary: "planted by the decoy", Done: true}, nil, history.StateChange{}); err != nil {
		t.Fatal(err)
	}
	hs.Close()
	opensDuringSwaps(t, dir, decoy, 300, "histories read", func(v *Workspace, _ int) error {
		ans, err := call(v, "history", `{}`)
		if err != nil {
			return err
		}
		points := ans.Data.(HistoryAnswer).Points
		for _, p := range points {
			if strings.Contains(p.Summary, "planted by the decoy") {
				t.Fatalf("a workspace read the decoy's history: %+v", points)
			}
		}
		return nil
	})
	// The swaps over, the workspace reads its own history.
	v, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if h := mustCall(t, v, "history", `{}`).Data.(HistoryAnswer); len(h.Points) == 0 || h.Points[len(h.Points)-1].Summary != "write start.txt" {
		t.Errorf("after the swaps: %+v", h.Points)
	}
}

// opensDuringSwaps swaps the project dir's .tent with a link to the folder
// decoy again and again while it opens a new workspace of dir rounds
// times and uses it (round i): each use answers its own (use returns nil,
// having failed t where it read the decoy's) or is refused. It logs what
// it counted (answered names the answers) and fails t where the swaps
// were too few to meet the opens.
func opensDuringSwaps(t *testing.T, dir, decoy string, rounds int, answered string, use func(v *Workspace, i int) error) {
	t.Helper()
	state, swap := filepath.Join(dir, ".tent"), filepath.Join(dir, "swap")
	if err := os.Symlink(decoy, swap); err != nil {
		t.Fatal(err)
	}
	swapper := swaptest.Start(t, state, swap)
	own, refused := 0, 0
	for i := range rounds {
		v, err := Open(dir, Options{})
		if err == nil {
			err = use(v, i)
			v.Close()
		}
		if err != nil {
			if refused == 0 {
				t.Logf("first refusal: %v", err)
			}
			refused++
			continue
		}
		own++
	}
	swaps := swapper.Stop()
	t.Logf("%d swaps; %d %s, %d refused", swaps, own, answered, refused)
	if swaps < 10 {
		t.Errorf("the swaps did not meet the opens (%d swaps)", swaps)
	}
}
