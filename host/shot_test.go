package host

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/chromiumtest"
	"github.com/tent-tools/tent-tools/shot"
)

// TestOneBrowser: the handle's workspaces take their pictures in one
// browser, which the handle's Close stops with every process it started.
func TestOneBrowser(t *testing.T) {
	chromiumtest.Need(t, shot.Find)
	marked := t.TempDir()
	t.Setenv("TMPDIR", marked)
	h := open(t, Config{})
	ctx := context.Background()
	for _, owner := range []string{"ann", "bob"} {
		ws, err := h.Create(ctx, owner, shop)
		if err != nil {
			t.Fatal(err)
		}
		ans, err := h.Tool(ctx, ws.ID, "shot", raw(map[string]string{"path": "/categories/kitchen", "size": "phone"}), Call{Caller: owner})
		if err != nil {
			t.Fatalf("%s: %v", owner, err)
		}
		if !strings.Contains(ans.Text, "viewport 390x844") {
			t.Errorf("%s: %s", owner, ans.Text)
		}
	}
	profiles := map[string]bool{}
	profile := regexp.MustCompile(`--user-data-dir=(\S+)`)
	for _, p := range chromiumtest.Live(marked) {
		if m := profile.FindStringSubmatch(p); m != nil {
			profiles[m[1]] = true
		}
	}
	if len(profiles) != 1 {
		t.Errorf("%d browsers run for two workspaces' shots, want 1: %v", len(profiles), profiles)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if live := chromiumtest.Live(marked); len(live) > 0 {
		t.Errorf("Chromium left running after the handle's Close:\n%s", strings.Join(live, "\n"))
	}
}
