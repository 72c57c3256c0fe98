package studio_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tent-tools/tent-tools/internal/chromiumtest"
	"github.com/tent-tools/tent-tools/shot"
)

// This file drives the page in a real headless Chromium (chromedp): clicks
// and typing on the data-testid of each control (the contract of
// studio/web), asserting the bytes on disk and the points of the history.

// browser is the one Chromium the package's tests share, a tab each.
var browser struct {
	once   sync.Once
	ctx    context.Context
	cancel func()
	err    error
}

// closeBrowser stops the shared browser; TestMain calls it.
func closeBrowser() {
	if browser.cancel != nil {
		browser.cancel()
	}
}

// tab opens a new tab of the shared browser at size w×h, failing the
// test without Chromium under CI (skipped elsewhere).
func tab(t testing.TB, w, h int) context.Context {
	t.Helper()
	chromiumtest.Need(t, shot.Find)
	browser.once.Do(func() {
		exe, err := shot.Find()
		if err != nil {
			browser.err = err
			return
		}
		opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.DisableGPU,
			chromedp.Flag("hide-scrollbars", true), chromedp.Flag("force-device-scale-factor", "1"),
			chromedp.Flag("font-render-hinting", "none"), chromedp.Flag("disable-crash-reporter", true),
			chromedp.Flag("no-zygote", true), chromedp.Flag("proxy-bypass-list", "<-loopback>"))
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, cancelB := chromedp.NewContext(actx)
		browser.ctx, browser.cancel = bctx, func() { cancelB(); cancelA() }
		browser.err = chromedp.Do(bctx)
	})
	if browser.err != nil {
		t.Fatalf("start Chromium: %v", browser.err)
	}
	ctx, cancel := chromedp.NewContext(browser.ctx)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancelT)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(w), int64(h))); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	return ctx
}

// tid is the CSS selector of a data-testid.
func tid(id string) string { return fmt.Sprintf(`[data-testid=%q]`, id) }

// openPage opens the printed URL in a new tab and waits for the studio to
// draw its first model.
func openPage(t *testing.T, s *studioProc, w, h int) context.Context {
	t.Helper()
	ctx := tab(t, w, h)
	if err := chromedp.Do(ctx, chromedp.Navigate(s.url), chromedp.WaitVisible(chromedp.CSS(tid("studio")))); err != nil {
		t.Fatalf("open the studio: %v\n%s", err, s.stderr.String())
	}
	return ctx
}

// run runs actions in the tab, failing the test with what failed.
func run(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval answers a JavaScript expression's value in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// waitJS waits until the expression is true in the page (bounded).
func waitJS(t *testing.T, ctx context.Context, what, expr string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s (%s; %v)", what, within, expr, err)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// textOf answers the text of a data-testid's element ("" where none).
func textOf(t *testing.T, ctx context.Context, id string) string {
	t.Helper()
	return eval[string](t, ctx, fmt.Sprintf(`(document.querySelector(%q)||{}).textContent||""`, tid(id)))
}

// waitFile waits until the file satisfies ok, answering its text.
func waitFile(t *testing.T, dir, path string, ok func(string) bool, what string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(filepath.Join(dir, path))
		if ok(string(b)) {
			return string(b)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s is, after 10s:\n%s", what, path, b)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// cliPoints answers the history's points as the CLI lists them, newest
// first, as "point tool" lines.
func cliPoints(t *testing.T, dir string) []string {
	t.Helper()
	out, err := exec.Command(bin, "-C", dir, "--json", "history").Output()
	if err != nil {
		t.Fatalf("history: %v", err)
	}
	var ans struct {
		Points []struct {
			Point int    `json:"point"`
			Tool  string `json:"tool"`
			Kind  string `json:"kind"`
		} `json:"points"`
	}
	if err := json.Unmarshal(out, &ans); err != nil {
		t.Fatalf("history: %v: %s", err, out)
	}
	var ps []string
	for _, p := range ans.Points {
		ps = append(ps, fmt.Sprintf("%d %s %s", p.Point, p.Tool, p.Kind))
	}
	return ps
}

// TestBrowserOpens: the printed URL opens the studio; the token leaves the
// address bar, the cookie is out of the page's reach (HttpOnly), and the
// diagram has a box per table.
func TestBrowserOpens(t *testing.T) {
	dir := copyProject(t, "clinic")
	s := startStudio(t, dir)
	ctx := openPage(t, s, 1280, 800)
	href := eval[string](t, ctx, `location.href`)
	cookies := eval[string](t, ctx, `document.cookie`)
	if strings.Contains(href, "token") || href != s.base+"/" {
		t.Errorf("the address after opening: %s; want %s/ without the token", href, s.base)
	}
	if cookies != "" {
		t.Errorf("the page reads the cookies %q; the studio's is HttpOnly", cookies)
	}
	for _, table := range []string{"patients", "staff", "visits"} {
		waitJS(t, ctx, "the box of "+table, fmt.Sprintf(`!!document.querySelector(%q)`, tid("table-node-"+table)), 5*time.Second)
	}
}

// TestBrowserLive: a CLI edit beside the studio shows in the page within a
// second, without a reload.
func TestBrowserLive(t *testing.T) {
	dir := copyProject(t, "clinic")
	s := startStudio(t, dir)
	ctx := openPage(t, s, 1280, 800)
	eval[bool](t, ctx, `window.__notReloaded = true`)
	start := time.Now()
	cmd := exec.Command(bin, "-C", dir, "edit", "tables/patients.ts", "--find", "    ward: text({ optional: true }),\n",
		"--with", "    ward: text({ optional: true }),\n    email: text({ optional: true }),\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("edit: %v\n%s", err, out)
	}
	edited := time.Since(start)
	waitJS(t, ctx, "the CLI's column in the page", fmt.Sprintf(`(document.querySelector(%q)||{textContent:""}).textContent.includes("email")`, tid("table-node-patients")), time.Second)
	if !eval[bool](t, ctx, `window.__notReloaded === true`) {
		t.Fatal("the page was reloaded")
	}
	t.Logf("the CLI's edit took %s; the page showed it %s after it ended", edited, time.Since(start)-edited)
}
