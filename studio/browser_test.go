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

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tent-tools/tent-tools/internal/chromiumtest"
	"github.com/tent-tools/tent-tools/internal/sample"
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

// holds reports whether a JavaScript expression comes to be true in the
// page within the time, without failing the test where it does not.
func holds(ctx context.Context, expr string, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for {
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr)); err == nil && ok {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(25 * time.Millisecond)
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
	t.Parallel()
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

// click clicks a data-testid's element, as a person's mouse does: a
// press and a release at its middle, scrolled into view.
func click(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	wait, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	run(t, wait, "wait for "+id, chromedp.WaitVisible(chromedp.CSS(tid(id))))
	x, y := at(t, ctx, id, 0.5)
	run(t, ctx, "click "+id, chromedp.MouseClickXY(x, y))
}

// typeInto replaces the text of an input by typing, as a person does.
func typeInto(t *testing.T, ctx context.Context, id, text string) {
	t.Helper()
	sel := chromedp.CSS(tid(id))
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	run(t, ctx, "type into "+id, chromedp.WaitVisible(sel), chromedp.Focus(sel),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).select()`, tid(id))),
		chromedp.SendKeys(sel, text))
}

// check sets a checkbox to on or off, clicking it where it is not so.
func check(t *testing.T, ctx context.Context, id string, on bool) {
	t.Helper()
	is := fmt.Sprintf(`document.querySelector(%q).checked`, tid(id))
	if eval[bool](t, ctx, is) != on {
		click(t, ctx, id)
	}
	waitJS(t, ctx, id+" set", fmt.Sprintf(`%s === %v`, is, on), 2*time.Second)
}

// choose picks an option of a select, as a person's choice does (its
// change event).
func choose(t *testing.T, ctx context.Context, id, value string) {
	t.Helper()
	waitJS(t, ctx, "the select "+id, fmt.Sprintf(`!!document.querySelector(%q)`, tid(id)), 5*time.Second)
	if !eval[bool](t, ctx, fmt.Sprintf(`(() => { const s = document.querySelector(%q); if (![...s.options].some(o => o.value === %q)) return false;
		s.value = %q; s.dispatchEvent(new Event('input', {bubbles: true})); s.dispatchEvent(new Event('change', {bubbles: true})); return true })()`, tid(id), value, value)) {
		t.Fatalf("%s has no option %q", id, value)
	}
}

// at answers a point of a data-testid's element in the viewport: its
// middle across, fy of its height down.
func at(t *testing.T, ctx context.Context, id string, fy float64) (float64, float64) {
	t.Helper()
	xy := eval[[]float64](t, ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.scrollIntoView({block: 'center', behavior: 'instant'}); const r = e.getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height*%g] })()`, tid(id), fy))
	return xy[0], xy[1]
}

// drag presses the mouse on one element, moves it over the upper part of
// another in steps and lets go there.
func drag(t *testing.T, ctx context.Context, from, to string) {
	t.Helper()
	x0, y0 := at(t, ctx, from, 0.5)
	x1, y1 := at(t, ctx, to, 0.3)
	steps := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0, y0), chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1))}
	for i := 1; i <= 8; i++ {
		f := float64(i) / 8
		steps = append(steps, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, chromedp.ButtonLeft))
	}
	steps = append(steps, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	run(t, ctx, "drag "+from+" to "+to, steps...)
}

// ready waits until the page shows a model newer than version.
func ready(t *testing.T, ctx context.Context, after int) int {
	t.Helper()
	sel := tid("studio")
	waitJS(t, ctx, fmt.Sprintf("a model after version %d", after), fmt.Sprintf(`(() => { const s = document.querySelector(%q); return !!s && s.dataset.state === 'ready' && Number(s.dataset.version) > %d })()`, sel, after), 10*time.Second)
	return eval[int](t, ctx, fmt.Sprintf(`Number(document.querySelector(%q).dataset.version)`, sel))
}

// sameAsChange holds the project dir, after the page's actions, to the
// bytes that `tent-tools call change` with ops writes on a fresh copy of
// the sample: the page edits by the same operations as the agent.
func sameAsChange(t *testing.T, dir, sampleName string, ops string) {
	t.Helper()
	want := copyProject(t, sampleName)
	if out, err := exec.Command(bin, "-C", want, "call", "change", `{"ops": `+ops+`}`).CombinedOutput(); err != nil {
		t.Fatalf("call change %s: %v\n%s", ops, err, out)
	}
	got, exp := sample.Load(t, dir), sample.Load(t, want)
	for path, text := range exp {
		if string(got[path]) != string(text) {
			t.Errorf("%s after the page's action differs from call change %s:\n%s\nwant:\n%s", path, ops, got[path], text)
		}
	}
	for path := range got {
		if _, ok := exp[path]; !ok {
			t.Errorf("the page wrote %s, which call change %s does not", path, ops)
		}
	}
}

// wantPoints holds the history to its points' tools, newest first.
func wantPoints(t *testing.T, dir string, want ...string) {
	t.Helper()
	var got []string
	for _, p := range cliPoints(t, dir) {
		got = append(got, strings.Fields(p)[1])
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("the history's points: %v; want the tools %v", cliPoints(t, dir), want)
	}
}

// TestBrowserAddColumn: a column added in the inspector is written as the
// change tool writes it, one point.
func TestBrowserAddColumn(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "clinic")
	s := startStudio(t, dir)
	ctx := openPage(t, s, 1280, 800)
	v := ready(t, ctx, -1)
	click(t, ctx, "table-item-patients")
	waitJS(t, ctx, "the inspector of patients", fmt.Sprintf(`(document.querySelector(%q)||{dataset:{}}).dataset.table === 'patients'`, tid("inspector")), 5*time.Second)
	typeInto(t, ctx, "add-column-name", "phone")
	choose(t, ctx, "add-column-type", "text")
	check(t, ctx, "add-column-optional", true)
	click(t, ctx, "add-column-submit")
	waitFile(t, dir, "tables/patients.ts", func(s string) bool { return strings.Contains(s, "phone") }, "the column added")
	ready(t, ctx, v)
	waitJS(t, ctx, "the column in the inspector", fmt.Sprintf(`!!document.querySelector(%q)`, tid("column-phone")), 5*time.Second)
	sameAsChange(t, dir, "clinic", `[{"op": "addColumn", "table": "patients", "name": "phone", "type": "text", "optional": true}]`)
	wantPoints(t, dir, "change")
}

// TestBrowserRenameTable: a table renamed in the inspector is the rename
// of the change tool, everywhere it is named.
func TestBrowserRenameTable(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "clinic")
	s := startStudio(t, dir)
	ctx := openPage(t, s, 1280, 800)
	v := ready(t, ctx, -1)
	click(t, ctx, "table-item-staff")
	waitJS(t, ctx, "the inspector of staff", fmt.Sprintf(`(document.querySelector(%q)||{dataset:{}}).dataset.table === 'staff'`, tid("inspector")), 5*time.Second)
	typeInto(t, ctx, "table-name", "doctors")
	click(t, ctx, "table-rename")
	waitFile(t, dir, "tables/staff.ts", func(s string) bool { return strings.Contains(s, "export const doctors = table(") }, "the table renamed")
	ready(t, ctx, v)
	waitJS(t, ctx, "the renamed box", fmt.Sprintf(`!!document.querySelector(%q)`, tid("table-node-doctors")), 5*time.Second)
	sameAsChange(t, dir, "clinic", `[{"op": "rename", "name": "staff", "to": "doctors"}]`)
	wantPoints(t, dir, "change")
}

// TestBrowserDragStep: a step dragged below the next one is moveStep.
func TestBrowserDragStep(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "shop")
	s := startStudio(t, dir)
	ctx := openPage(t, s, 1280, 800)
	v := ready(t, ctx, -1)
	run(t, ctx, "open the flow", chromedp.Navigate(s.base+"/#/flows/checkout"))
	waitJS(t, ctx, "the flow's steps", fmt.Sprintf(`(document.querySelector(%q)||{dataset:{}}).dataset.step === 'reserveStock'`, tid("step-0")), 10*time.Second)
	drag(t, ctx, "step-handle-0", "step-1")
	waitFile(t, dir, "flows/checkout.ts", func(s string) bool { return strings.Contains(s, "steps: ['placeOrder', 'reserveStock', 'chargeCard']") }, "the step moved")
	ready(t, ctx, v)
	waitJS(t, ctx, "the steps in their new order", fmt.Sprintf(`(document.querySelector(%q)||{dataset:{}}).dataset.step === 'placeOrder'`, tid("step-0")), 5*time.Second)
	sameAsChange(t, dir, "shop", `[{"op": "moveStep", "flow": "checkout", "from": 0, "to": 1}]`)
	wantPoints(t, dir, "change")
}

// TestBrowserDragColumn: a column dragged in the inspector below another
// is the moveColumn the arrows send, and Alt+↑ in a column sends it too.
func TestBrowserDragColumn(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "clinic")
	s := startStudio(t, dir)
	ctx := openPage(t, s, 1280, 800)
	v := ready(t, ctx, -1)
	click(t, ctx, "table-item-patients")
	waitJS(t, ctx, "the inspector of patients", fmt.Sprintf(`(document.querySelector(%q)||{dataset:{}}).dataset.table === 'patients'`, tid("inspector")), 5*time.Second)
	order := func() string {
		return eval[string](t, ctx, fmt.Sprintf(`[...document.querySelectorAll('%s [data-testid^="column-"]')].map((e) => e.dataset.testid.slice(7)).join(',')`, tid("inspector")))
	}
	if got := order(); got != "fullName,born,ward" {
		t.Fatalf("the columns before: %s", got)
	}
	drag(t, ctx, "col-handle-fullName", "column-ward")
	waitFile(t, dir, "tables/patients.ts", func(s string) bool {
		return strings.Index(s, "ward:") < strings.Index(s, "fullName:") && strings.Index(s, "born:") < strings.Index(s, "ward:")
	}, "the column moved")
	v = ready(t, ctx, v)
	waitJS(t, ctx, "the columns in their new order", fmt.Sprintf(`[...document.querySelectorAll('%s [data-testid^="column-"]')].map((e) => e.dataset.testid.slice(7)).join(',') === 'born,ward,fullName'`, tid("inspector")), 5*time.Second)
	sameAsChange(t, dir, "clinic", `[{"op": "moveColumn", "column": "patients.fullName", "after": "ward"}]`)

	run(t, ctx, "Alt+↑ in fullName", chromedp.Focus(chromedp.CSS(tid("col-name-fullName"))), chromedp.KeyEvent(kb.ArrowUp, chromedp.KeyModifiers(kb.ModifierAlt)))
	waitFile(t, dir, "tables/patients.ts", func(s string) bool {
		return strings.Index(s, "fullName:") < strings.Index(s, "ward:") && strings.Index(s, "born:") < strings.Index(s, "fullName:")
	}, "the column moved up")
	ready(t, ctx, v)
	sameAsChange(t, dir, "clinic", `[{"op": "moveColumn", "column": "patients.fullName", "after": "ward"}, {"op": "moveColumn", "column": "patients.fullName", "before": "ward"}]`)
	wantPoints(t, dir, "change", "change")
}

// TestBrowserLayout: at 1280×800 the diagram shows every box beside the
// inspector (fitted again when the inspector narrows it) and the test
// data grid shows every column of the shop's widest table without a
// scroll; on a phone (390×844) the inspector is on the first screen, its
// controls under no other pane, and its grip gives it the whole screen.
func TestBrowserLayout(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "shop")
	s := startStudio(t, dir)
	// boxesIn: every table's box lies inside the diagram's box.
	const boxesIn = `(() => { const svg = document.querySelector('[data-testid="diagram"] svg').getBoundingClientRect(); const bs = [...document.querySelectorAll('.tbox')]; return bs.length === 7 && bs.every((b) => { const r = b.getBoundingClientRect(); return r.left >= svg.left - 1 && r.right <= svg.right + 1 && r.top >= svg.top - 1 && r.bottom <= svg.bottom + 1; }) })()`
	// uncovered: the control is where a tap on its middle lands.
	uncovered := func(id string) string {
		return fmt.Sprintf(`(() => { const e = document.querySelector(%q); const r = e.getBoundingClientRect(); const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return r.bottom <= innerHeight && !!at && (at === e || e.contains(at)) })()`, tid(id))
	}

	desk := openPage(t, s, 1280, 800)
	ready(t, desk, -1)
	run(t, desk, "the diagram", chromedp.Navigate(s.base+"/#/tables"))
	waitJS(t, desk, "the diagram fitted", boxesIn, 10*time.Second)
	click(t, desk, "table-item-orders")
	waitJS(t, desk, "every box beside the inspector", `!!document.querySelector('[data-testid="inspector"]') && `+boxesIn, 5*time.Second)
	// The table's link routes by a hashchange, a task of the page's own:
	// until it ran, the inspector on the screen is still orders', whose
	// tab a click at once would open (and the next render drop, the
	// products' inspector starting on its columns). The click waits for
	// products' inspector.
	click(t, desk, "table-item-products")
	waitJS(t, desk, "the inspector of products", fmt.Sprintf(`(document.querySelector(%q)||{dataset:{}}).dataset.table === 'products'`, tid("inspector")), 10*time.Second)
	click(t, desk, "inspector-data")
	waitJS(t, desk, "the grid", fmt.Sprintf(`(document.querySelector(%q)||{dataset:{}}).dataset.table === 'products' && Number((document.querySelector(%q)||{dataset:{}}).dataset.rows) === 5`, tid("inspector"), tid("grid")), 15*time.Second)
	waitJS(t, desk, "every box beside the grid", boxesIn, 5*time.Second)
	if cut := eval[[]float64](t, desk, `(() => { const g = document.querySelector('.gridscroll'); return [g.scrollWidth, g.clientWidth, document.documentElement.scrollWidth] })()`); cut[0] > cut[1] || cut[2] > 1280 {
		t.Errorf("at 1280×800 the grid is %g wide in %g, the page %g: cut", cut[0], cut[1], cut[2])
	}
	if !eval[bool](t, desk, uncovered("row-delete-p5")) {
		t.Error("at 1280×800 the last column of the grid is not on the screen")
	}

	// Between the phone and the desk (900 to 1,100 pixels, where the
	// sheet, the list, the inspector or the grid leave the diagram least):
	// the diagram keeps 300 by 240 pixels at the least beside the
	// inspector and beside the grid, every box inside it, and the grid's
	// last column is reached without the page scrolling sideways.
	barsClear := `(() => { const bars = [...document.querySelectorAll('.zoombar, .layinfo')].map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0); return [...document.querySelectorAll('.tbox')].every((b) => { const r = b.getBoundingClientRect(); return bars.every((o) => r.right <= o.left || r.left >= o.right || r.bottom <= o.top || r.top >= o.bottom) }) })()`
	diagramSize := `(() => { const r = document.querySelector('[data-testid="diagram"] svg').getBoundingClientRect(); return [r.width, r.height] })()`
	for _, width := range []int{900, 1000, 1100} {
		mid := openPage(t, s, width, 800)
		ready(t, mid, -1)
		run(t, mid, "the diagram", chromedp.Navigate(s.base+"/#/tables"))
		waitJS(t, mid, "the diagram fitted", boxesIn, 10*time.Second)
		for _, step := range []struct{ what, click, wait string }{
			{"the inspector", "table-item-products", fmt.Sprintf(`(document.querySelector(%q)||{dataset:{}}).dataset.table === 'products'`, tid("inspector"))},
			{"the grid", "inspector-data", fmt.Sprintf(`Number((document.querySelector(%q)||{dataset:{}}).dataset.rows) > 0`, tid("grid"))},
		} {
			click(t, mid, step.click)
			waitJS(t, mid, fmt.Sprintf("%s at %d pixels", step.what, width), step.wait, 15*time.Second)
			// The diagram is fitted again once its box changed (a resize
			// observer's frame later): the boxes and the bars are held to
			// it once it settled.
			settled := fmt.Sprintf(`%s && %s`, boxesIn, barsClear)
			if !holds(mid, settled, 15*time.Second) {
				t.Errorf("at %d×800 beside %s a box is outside the diagram or under its zoom bar or layout numbers (inside: %v)", width, step.what, eval[bool](t, mid, boxesIn))
			}
			if size := eval[[]float64](t, mid, diagramSize); size[0] < 300 || size[1] < 240 {
				t.Errorf("at %d×800 the diagram beside %s is %g×%g; want 300×240 at the least", width, step.what, size[0], size[1])
			}
		}
		if w := eval[float64](t, mid, `document.documentElement.scrollWidth`); w > float64(width) {
			t.Errorf("at %d×800 the page is %g wide: it scrolls sideways", width, w)
		}
		run(t, mid, "the last column", chromedp.ScrollIntoView(tid("row-delete-p5")))
		if !eval[bool](t, mid, uncovered("row-delete-p5")) {
			t.Errorf("at %d×800 the grid's last column cannot be reached", width)
		}
	}

	// A flow beside its file in the narrowest pane the list and the file
	// leave (300 pixels at 901 to 947): each step's buttons stay in its box.
	flow := openPage(t, s, 920, 800)
	ready(t, flow, -1)
	run(t, flow, "a flow", chromedp.Navigate(s.base+"/#/flows/checkout"))
	waitJS(t, flow, "the flow's steps", fmt.Sprintf(`!!document.querySelector(%q)`, tid("step-2")), 10*time.Second)
	if !eval[bool](t, flow, `[...document.querySelectorAll('.step')].every((st) => { const r = st.getBoundingClientRect(); return [...st.querySelectorAll('button')].every((b) => { const q = b.getBoundingClientRect(); return q.left >= r.left && q.right <= r.right }) })`) {
		t.Error("at 920×800 a flow step's buttons stand outside its box")
	}

	phone := openPage(t, s, 390, 844)
	run(t, phone, "a table on a phone", chromedp.Navigate(s.base+"/#/tables/orders"))
	waitJS(t, phone, "the inspector", fmt.Sprintf(`(document.querySelector(%q)||{dataset:{}}).dataset.table === 'orders'`, tid("inspector")), 10*time.Second)
	for _, id := range []string{"table-name", "col-name-buyer", "col-type-buyer", "inspector-data"} {
		if !eval[bool](t, phone, uncovered(id)) {
			t.Errorf("on a phone %s is not on the first screen, or something covers it", id)
		}
	}
	if y := eval[float64](t, phone, `scrollY + document.querySelector('.work').scrollTop`); y != 0 {
		t.Errorf("the page scrolled by %g to show the inspector", y)
	}
	click(t, phone, "sheet-grip")
	waitJS(t, phone, "the inspector on the whole screen", fmt.Sprintf(`document.querySelector(%q).getBoundingClientRect().top < 20`, tid("inspector")), 5*time.Second)
	click(t, phone, "sheet-grip")
	waitJS(t, phone, "the diagram above the inspector again", fmt.Sprintf(`document.querySelector(%q).getBoundingClientRect().top > 200`, tid("inspector")), 5*time.Second)
}

// TestBrowserWideGrid: a table far wider than its card (the shop's
// products with five more columns, 1,479 pixels of them, and 24 rows),
// in the windows of 901 to 1,107 pixels where the grid stands below the
// diagram: it scrolls sideways inside its card, never the page; the card
// overlaps neither the list nor the diagram and keeps its bottom (and its
// scroll bars) on the screen; the row's id and its delete button stay at
// the card's edges as the columns pass beneath, and data-cut says on which
// side columns are hidden; the last column is reached uncovered.
func TestBrowserWideGrid(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "shop")
	var ops []string
	for _, c := range []string{"warehouseLocation", "supplierReference", "countryOfOrigin", "customsTariffCode", "shippingWeightGrams"} {
		ops = append(ops, fmt.Sprintf(`{"op": "addColumn", "table": "products", "name": %q, "type": "text", "optional": true}`, c))
	}
	ops = append(ops, `{"op": "setRow", "table": "products", "id": "p1", "set": {"warehouseLocation": "Aisle 14, shelf 3, bin 22", "supplierReference": "SUP-2026-000114-A", "shippingWeightGrams": "2400"}}`)
	for i := 6; i <= 24; i++ {
		ops = append(ops, fmt.Sprintf(`{"op": "addRow", "table": "products", "row": {"id": "p%d", "name": "Thing %d", "category": "c1", "price": 100, "costPrice": 50}}`, i, i))
	}
	if out, err := exec.Command(bin, "-C", dir, "call", "change", `{"ops": [`+strings.Join(ops, ", ")+`]}`).CombinedOutput(); err != nil {
		t.Fatalf("call change: %v\n%s", err, out)
	}
	s := startStudio(t, dir)
	// rect and visible: a box, and whether a tap on an element's middle lands on it.
	const helpers = `const rect = (q) => document.querySelector(q).getBoundingClientRect();
		const visible = (q) => { const e = document.querySelector(q); const r = e.getBoundingClientRect(); const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return !!at && (at === e || e.contains(at)); };
		const apart = (a, b) => a.right <= b.left + 1 || b.right <= a.left + 1 || a.bottom <= b.top + 1 || b.bottom <= a.top + 1;`
	holdsIn := func(ctx context.Context, expr string) bool {
		return eval[bool](t, ctx, `(() => { `+helpers+` return `+expr+` })()`)
	}
	cut := fmt.Sprintf(`document.querySelector(%q).dataset.cut`, tid("grid-scroll"))
	scrollTo := func(ctx context.Context, where string) {
		eval[bool](t, ctx, fmt.Sprintf(`(() => { const g = document.querySelector(%q); g.scrollLeft = %s; return true })()`, tid("grid-scroll"), where))
	}
	for _, width := range []int{901, 1000, 1107} {
		ctx := openPage(t, s, width, 800)
		ready(t, ctx, -1)
		run(t, ctx, "the products", chromedp.Navigate(s.base+"/#/tables/products"))
		waitJS(t, ctx, "the inspector", fmt.Sprintf(`(document.querySelector(%q)||{dataset:{}}).dataset.table === 'products'`, tid("inspector")), 10*time.Second)
		click(t, ctx, "inspector-data")
		waitJS(t, ctx, fmt.Sprintf("the grid at %d pixels", width), fmt.Sprintf(`Number((document.querySelector(%q)||{dataset:{}}).dataset.rows) === 24`, tid("grid")), 15*time.Second)

		m := eval[map[string]float64](t, ctx, `(() => { const g = document.querySelector('[data-testid="grid-scroll"]'); const p = document.querySelector('[data-testid="inspector"]');
			return { table: g.scrollWidth, card: g.clientWidth, page: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
				cardBottom: g.getBoundingClientRect().bottom, cardRight: g.getBoundingClientRect().right, paneRight: p.getBoundingClientRect().right,
				paneScroll: p.scrollHeight - p.clientHeight } })()`)
		if m["table"] < m["card"]+200 {
			t.Fatalf("at %d×800 the table is %g wide in a card of %g: not the wide table this test is for", width, m["table"], m["card"])
		}
		if m["page"] > float64(width) {
			t.Errorf("at %d×800 the page is %g wide: it scrolls sideways", width, m["page"])
		}
		if m["cardRight"] > m["paneRight"]+1 || m["paneRight"] > float64(width)+1 {
			t.Errorf("at %d×800 the card ends at %g, its pane at %g: past the window", width, m["cardRight"], m["paneRight"])
		}
		if m["cardBottom"] > 800 || m["paneScroll"] > 1 {
			t.Errorf("at %d×800 the card's bottom (its scroll bar) is at %g, and its pane scrolls by %g: it is not on the screen", width, m["cardBottom"], m["paneScroll"])
		}
		if !holdsIn(ctx, fmt.Sprintf(`apart(rect(%q), rect('.center')) && apart(rect(%q), rect('.side')) && apart(rect('.center'), rect('.side'))`, tid("inspector"), tid("inspector"))) {
			t.Errorf("at %d×800 the grid's pane, the diagram and the list overlap", width)
		}

		waitJS(t, ctx, fmt.Sprintf("at %d pixels, columns hidden at the end only", width), cut+` === 'end'`, 5*time.Second)
		scrollTo(ctx, "(g.scrollWidth - g.clientWidth) / 2")
		waitJS(t, ctx, fmt.Sprintf("at %d pixels, columns hidden on both sides", width), cut+` === 'start end'`, 5*time.Second)
		for _, id := range []string{"row-p1", "row-delete-p1"} {
			q := tid(id) + " .idcell"
			if id != "row-p1" {
				q = tid(id)
			}
			if !holdsIn(ctx, fmt.Sprintf(`visible(%q) && rect(%q).left >= rect(%q).left - 1 && rect(%q).right <= rect(%q).right + 1`, q, q, tid("grid-scroll"), q, tid("grid-scroll"))) {
				t.Errorf("at %d×800, scrolled halfway, %s is not at the card's edge on the screen", width, q)
			}
		}
		scrollTo(ctx, "g.scrollWidth")
		waitJS(t, ctx, fmt.Sprintf("at %d pixels, columns hidden at the start only", width), cut+` === 'start'`, 5*time.Second)
		if !holdsIn(ctx, fmt.Sprintf(`visible(%q) && visible(%q)`, tid("cell-p1-shippingWeightGrams"), tid("row-delete-p1"))) {
			t.Errorf("at %d×800, scrolled to the end, the last column or the delete button is covered", width)
		}
		// A cell reached by the keyboard is scrolled clear of the held
		// columns, the way back too.
		for _, id := range []string{"cell-p1-name", "cell-p1-shippingWeightGrams", "cell-p2-description", "cell-p3-price"} {
			// the cell's left edge 10 pixels inside the card, under the id
			scrollTo(ctx, fmt.Sprintf(`document.querySelector(%q).offsetLeft - 10`, tid(id)))
			eval[bool](t, ctx, fmt.Sprintf(`(document.querySelector(%q).focus(), true)`, tid(id)))
			clear := fmt.Sprintf(`(() => { const c = document.querySelector(%q); const row = c.closest('tr'); const r = c.getBoundingClientRect();
				return r.left >= row.querySelector('.idcell').getBoundingClientRect().right - 1 && r.right <= row.querySelector('.rowact').getBoundingClientRect().left + 1 })()`, tid(id))
			if !holds(ctx, clear, 2*time.Second) {
				t.Errorf("at %d×800 %s, focused, is under the id or the delete column", width, id)
			}
		}
		// and clear of the header: row p10's top 10 pixels under it.
		eval[bool](t, ctx, fmt.Sprintf(`(() => { const g = document.querySelector(%q); g.scrollLeft = 0; g.scrollTop = document.querySelector(%q).offsetTop - document.querySelector('.grid thead').offsetHeight + 10; document.querySelector(%q).focus(); return true })()`, tid("grid-scroll"), tid("row-p10"), tid("cell-p10-name")))
		if !holds(ctx, fmt.Sprintf(`document.querySelector(%q).getBoundingClientRect().top >= document.querySelector('.grid thead th').getBoundingClientRect().bottom - 1`, tid("cell-p10-name")), 2*time.Second) {
			t.Errorf("at %d×800 cell-p10-name, focused, is under the header", width)
		}
	}
}

// TestBrowserAddRow: a row added in the grid is addRow, in the test data.
func TestBrowserAddRow(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "clinic")
	s := startStudio(t, dir)
	ctx := openPage(t, s, 1280, 800)
	v := ready(t, ctx, -1)
	click(t, ctx, "table-item-patients")
	click(t, ctx, "inspector-data")
	waitJS(t, ctx, "the grid", fmt.Sprintf(`(document.querySelector(%q)||{dataset:{}}).dataset.rows === '2'`, tid("grid")), 5*time.Second)
	click(t, ctx, "add-row")
	typeInto(t, ctx, "new-row-id", "p3")
	typeInto(t, ctx, "new-row-fullName", "Ama Owusu")
	typeInto(t, ctx, "new-row-born", "1975-01-02T00:00:00Z")
	click(t, ctx, "new-row-submit")
	waitFile(t, dir, "testdata/patients.json", func(s string) bool { return strings.Contains(s, "Ama Owusu") }, "the row added")
	ready(t, ctx, v)
	waitJS(t, ctx, "the row in the grid", fmt.Sprintf(`!!document.querySelector(%q)`, tid("row-p3")), 5*time.Second)
	wantPoints(t, dir, "change")
	// The file's rows stand one a line, spaced inside their braces: the
	// new one is written as they are, every other byte as it was.
	want := `[
  { "id": "p1", "fullName": "Carla Diaz", "born": "1980-04-12T00:00:00Z", "ward": "B" },
  { "id": "p2", "fullName": "Deng Li", "born": "1992-09-30T00:00:00Z", "ward": null },
  { "id": "p3", "fullName": "Ama Owusu", "born": "1975-01-02T00:00:00Z" }
]
`
	if got := readTestFile(t, dir, "testdata/patients.json"); got != want {
		t.Fatalf("testdata/patients.json after the row:\n%s\nwant\n%s", got, want)
	}
}

// TestBrowserUndo: undo from the history puts the bytes back, as a point of
// its own.
func TestBrowserUndo(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "clinic")
	before := sample.Load(t, dir)
	s := startStudio(t, dir)
	if out, err := exec.Command(bin, "-C", dir, "call", "change", `{"ops": [{"op": "addColumn", "table": "patients", "name": "phone", "type": "text", "optional": true}]}`).CombinedOutput(); err != nil {
		t.Fatalf("call change: %v\n%s", err, out)
	}
	ctx := openPage(t, s, 1280, 800)
	v := ready(t, ctx, -1)
	click(t, ctx, "tab-history")
	waitJS(t, ctx, "the point in the history", `!!document.querySelector('[data-testid^="point-"]')`, 5*time.Second)
	click(t, ctx, "undo")
	waitFile(t, dir, "tables/patients.ts", func(s string) bool { return s == string(before["tables/patients.ts"]) }, "the undo")
	ready(t, ctx, v)
	after := sample.Load(t, dir)
	for path, text := range before {
		if string(after[path]) != string(text) {
			t.Errorf("%s after undo is not as it was", path)
		}
	}
	wantPoints(t, dir, "undo", "change")
	waitJS(t, ctx, "the undo point in the page", `document.querySelectorAll('[data-testid^="point-"]').length === 2`, 5*time.Second)
	// The undo names the point it put back, and that point the undo.
	waitJS(t, ctx, "the undo's link to point 1", fmt.Sprintf(`(document.querySelector(%q)||{dataset:{}}).dataset.points === '1'`, tid("undid-2")), 5*time.Second)
	if got := textOf(t, ctx, "undid-2"); got != "Undid point #1" {
		t.Errorf("the undo point says %q; want %q", got, "Undid point #1")
	}
	if got := textOf(t, ctx, "undone-by-1"); got != "Undone by #2" {
		t.Errorf("the point undone says %q; want %q", got, "Undone by #2")
	}
	// Nothing is left to undo: the button says so.
	waitJS(t, ctx, "undo disabled", fmt.Sprintf(`document.querySelector(%q).disabled`, tid("undo")), 5*time.Second)
	// A redo (the undo undone) brings point 1 back in effect.
	click(t, ctx, "undo-2")
	waitFile(t, dir, "tables/patients.ts", func(s string) bool { return strings.Contains(s, "phone") }, "the redo")
	waitJS(t, ctx, "the redo in the page", fmt.Sprintf(`!document.querySelector(%q) && (document.querySelector(%q)||{dataset:{}}).dataset.point === '3'`, tid("undone-by-1"), tid("undone-by-2")), 5*time.Second)
	waitJS(t, ctx, "undo enabled again", fmt.Sprintf(`!document.querySelector(%q).disabled`, tid("undo")), 5*time.Second)
}

// TestBrowserRefused: a change the operator's policy refuses is shown to
// the person, with its code, and writes nothing.
func TestBrowserRefused(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "clinic")
	policy := filepath.Join(t.TempDir(), "policy.json")
	os.WriteFile(policy, []byte(`{"deny": ["add:column"]}`), 0o600)
	before := readTestFile(t, dir, "tables/patients.ts")
	s := startStudio(t, dir, "--policy", policy)
	ctx := openPage(t, s, 1280, 800)
	ready(t, ctx, -1)
	click(t, ctx, "table-item-patients")
	typeInto(t, ctx, "add-column-name", "phone")
	click(t, ctx, "add-column-submit")
	waitJS(t, ctx, "the refusal shown", fmt.Sprintf(`(() => { const r = document.querySelector(%q); return !!r && !r.hidden && r.dataset.code === 'T9105' && r.offsetParent !== null })()`, tid("refusal")), 5*time.Second)
	if msg := textOf(t, ctx, "refusal-message"); !strings.Contains(msg, "add:column") {
		t.Errorf("the refusal says %q; want the rule add:column", msg)
	}
	if readTestFile(t, dir, "tables/patients.ts") != before {
		t.Fatal("a refused change wrote tables/patients.ts")
	}
	wantPoints(t, dir)
}

func readTestFile(t *testing.T, dir, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBrowserDiagramSelects: a click on a table's box in the diagram, with
// a real mouse, opens its inspector.
func TestBrowserDiagramSelects(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "clinic")
	s := startStudio(t, dir)
	ctx := openPage(t, s, 1280, 800)
	ready(t, ctx, -1)
	waitJS(t, ctx, "the layout", fmt.Sprintf(`(document.querySelector(%q)||{dataset:{}}).dataset.laidOut === 'yes'`, tid("diagram")), 10*time.Second)
	click(t, ctx, "table-node-visits")
	waitJS(t, ctx, "the inspector of visits", fmt.Sprintf(`(document.querySelector(%q)||{dataset:{}}).dataset.table === 'visits'`, tid("inspector")), 5*time.Second)
}

// TestBrowserScreenShot: a screen's picture, at the route typed beside it,
// is taken by the shot tool (tent/call) and shown.
func TestBrowserScreenShot(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "shop")
	s := startStudio(t, dir)
	ctx := openPage(t, s, 1280, 800)
	ready(t, ctx, -1)
	run(t, ctx, "open the screen", chromedp.Navigate(s.base+"/#/screens/productScreen"))
	typeInto(t, ctx, "shot-route", "/products/p1")
	click(t, ctx, "shot-button")
	waitJS(t, ctx, "the screen's picture", fmt.Sprintf(`(() => { const i = document.querySelector(%q); return !!i && i.complete && i.naturalWidth > 100 })()`, tid("shot-image")), 30*time.Second)
	if alt := eval[string](t, ctx, fmt.Sprintf(`document.querySelector(%q).alt`, tid("shot-image"))); !strings.Contains(alt, "productScreen") || !strings.Contains(alt, "/products/p1") {
		t.Errorf("the picture's alt is %q; want the screen's name", alt)
	}
	wantPoints(t, dir) // a picture changes nothing
}
