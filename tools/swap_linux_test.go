package tools

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/swaptest"
)

// TestSwapDuringWrites swaps the folder lib with a link (to the root, or
// to .tent) again and again, atomically (renameat2 RENAME_EXCHANGE), while
// writes of lib/engine.ts and lib/x/new.ts run: a write lands in lib/ or is
// refused, but the root's engine.ts is never written (the policy lacks
// also: engine) and nothing is made in .tent/ but the framework's own files.
func TestSwapDuringWrites(t *testing.T) {
	for _, target := range []string{".", ".tent"} {
		t.Run(target, func(t *testing.T) {
			w, dir := openCopy(t, Options{})
			mustCall(t, w, "history", `{}`)
			engine := readFile(t, dir, "engine.ts")
			lib, swap := filepath.Join(dir, "lib"), filepath.Join(dir, "swap")
			if err := os.Symlink(target, swap); err != nil {
				t.Fatal(err)
			}
			swapper := swaptest.Start(t, lib, swap)
			landed, refused := 0, 0
			for i := 0; i < 120 || (i < 600 && (landed == 0 || refused == 0)); i++ {
				// On a loaded machine a write is slow enough that swaps
				// without rest meet every one: rest longer while none lands.
				if landed == 0 && i%20 == 19 {
					swapper.Rest(min(max(2*swapper.Rested(), time.Millisecond), time.Second))
				}
				text := `{"path": "lib/engine.ts", "text": "export default engine({ allow: ['evil.example'] }) // ` + string(rune('a'+i%26)) + `\n"}`
				if i%2 == 1 {
					text = `{"path": "lib/x/new.ts", "text": "export const n = ` + string(rune('0'+i%10)) + `\n"}`
				}
				if _, err := call(w, "write", text); err != nil {
					refused++
				} else {
					landed++
				}
			}
			swaps := swapper.Stop()
			if got := readFile(t, dir, "engine.ts"); got != engine {
				t.Errorf("the root's engine.ts was written through the swapped link:\n%s", got)
			}
			entries, _ := os.ReadDir(filepath.Join(dir, ".tent"))
			for _, e := range entries {
				if !frameworkState(filepath.Join(".tent", e.Name())) && e.Name() != "cache" {
					t.Errorf(".tent/%s was made", e.Name())
				}
			}
			t.Logf("%d swaps; %d writes landed, %d refused", swaps, landed, refused)
			if swaps < 10 || landed == 0 || refused == 0 {
				t.Errorf("the swaps did not meet the writes (%d swaps, %d landed, %d refused)", swaps, landed, refused)
			}
		})
	}
}
