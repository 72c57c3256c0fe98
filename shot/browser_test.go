package shot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/chromedp"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/chromiumtest"
)

// TestMain marks this package's browsers, and fails the run where one of
// their processes outlives the tests.
func TestMain(m *testing.M) {
	dir, err := chromiumtest.Mark()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if live := chromiumtest.Live(dir); len(live) > 0 {
		fmt.Fprintf(os.Stderr, "Chromium processes left running after the tests:\n%s\n", strings.Join(live, "\n"))
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestParseSize(t *testing.T) {
	cases := []struct{ in, want, code string }{
		{"", "1280x800", ""},
		{"desktop", "1280x800", ""},
		{"phone", "390x844", ""},
		{"tablet", "820x1180", ""},
		{"1024x768", "1024x768", ""},
		{"99x500", "", "T9102"},
		{"5000x500", "", "T9102"},
		{"1024*768", "", "T9102"},
		{"watch", "", "T9102"},
	}
	for _, c := range cases {
		got, err := ParseSize(c.in)
		if c.code != "" {
			var te *diag.ToolError
			if !errors.As(err, &te) || te.Code != c.code {
				t.Errorf("%q: err = %v, want %s", c.in, err, c.code)
			}
			continue
		}
		if err != nil || got.String() != c.want {
			t.Errorf("%q: %v %v, want %s", c.in, got, err, c.want)
		}
	}
}

func TestFind(t *testing.T) {
	t.Setenv(ExecEnv, "/nonexistent/chromium")
	_, err := Find()
	var te *diag.ToolError
	if !errors.As(err, &te) || te.Code != diag.T4010 || !strings.Contains(te.Message, ExecEnv) {
		t.Errorf("a TENT_CHROMIUM that is no program: %v, want T4010 naming it", err)
	}
	t.Setenv(ExecEnv, "")
	t.Setenv("PATH", t.TempDir())
	_, err = Find()
	if !errors.As(err, &te) || te.Code != diag.T4010 || !strings.Contains(te.Message, "apt-get install chromium") {
		t.Errorf("no Chromium on PATH: %v, want T4010 telling how to install one", err)
	}
}

// start starts a browser for a test, closed when it ends.
func start(t *testing.T, cfg Config) *Browser {
	t.Helper()
	chromiumtest.Need(t, Find)
	b, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// TestIsolation: a page that asks for things from a local server and from
// the disk, in every way HTML has, gets none of them: the server sees no
// request, and no frame of the page holds the file.
func TestIsolation(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<h1>tent-served-marker</h1>")
	}))
	defer srv.Close()
	b := start(t, Config{})
	page := `<!doctype html><html><head>
<link rel="stylesheet" href="` + srv.URL + `/style.css">
<script src="` + srv.URL + `/app.js"></script>
<style>body { background: url(` + srv.URL + `/bg.png); } @import url(` + srv.URL + `/more.css);</style>
</head><body>
<h1>Isolation</h1>
<img src="` + srv.URL + `/image.png">
<img src="file:///etc/passwd">
<iframe id="f1" src="file:///etc/passwd" width="400" height="200"></iframe>
<iframe id="f2" src="` + srv.URL + `/frame" width="400" height="200"></iframe>
<object data="file:///etc/passwd"></object>
<script>document.body.innerHTML = 'script ran'</script>
</body></html>`

	tab, err := b.take()
	if err != nil {
		t.Fatal(err)
	}
	defer tab.close()
	pic, err := tab.shoot([]byte(page), Size{800, 600})
	if err != nil {
		t.Fatal(err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the local server saw %d requests, want 0", n)
	}
	if len(pic.Blocked) == 0 {
		t.Errorf("no request was blocked; the page asked for several")
	}
	res, err := chromedp.Call(tab.ctx, dom.GetDocument, dom.GetDocumentParams{Depth: ptr(int64(-1)), Pierce: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	var texts strings.Builder
	var walk func(n *cdp.Node)
	walk = func(n *cdp.Node) {
		texts.WriteString(n.NodeValue + "\n")
		for _, c := range n.Children {
			walk(c)
		}
		if n.ContentDocument != nil {
			walk(n.ContentDocument)
		}
	}
	walk(res.Root)
	all := texts.String()
	for _, banned := range []string{"root:x:0:0", "tent-served-marker"} {
		if strings.Contains(all, banned) {
			t.Errorf("the page holds %q:\n%s", banned, all)
		}
	}
	if !strings.Contains(all, "Isolation") {
		t.Errorf("the page lacks its own heading:\n%s", all)
	}
	if _, err := png.Decode(bytes.NewReader(pic.PNG)); err != nil {
		t.Errorf("the picture is no PNG: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestPageLimit: a picture past its limit is T4004, and the browser takes
// the next picture as before.
func TestPageLimit(t *testing.T) {
	b := start(t, Config{PageLimit: time.Millisecond})
	_, err := b.Shoot(context.Background(), []byte("<h1>slow</h1>"), Size{400, 300})
	var te *diag.ToolError
	if !errors.As(err, &te) || te.Code != diag.T4004 {
		t.Fatalf("err = %v, want T4004", err)
	}
	b.cfg.PageLimit = DefaultPageLimit
	pic, err := b.Shoot(context.Background(), []byte("<h1>fast</h1>"), Size{400, 300})
	if err != nil {
		t.Fatalf("after a page past its limit: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(pic.PNG))
	if err != nil || img.Bounds().Dx() != 400 || img.Bounds().Dy() != 300 {
		t.Fatalf("picture: %v %v, want 400x300", err, img.Bounds())
	}
}

// TestStartLimit: a browser that does not start in time is T4004, and
// nothing of it is left running (TestMain checks).
func TestStartLimit(t *testing.T) {
	chromiumtest.Need(t, Find)
	_, err := Start(context.Background(), Config{StartLimit: time.Millisecond})
	var te *diag.ToolError
	if !errors.As(err, &te) || te.Code != diag.T4004 {
		t.Fatalf("err = %v, want T4004", err)
	}
}

// TestFullPage: a page taller than the viewport is pictured whole; two
// pictures of one page are the same bytes.
func TestFullPage(t *testing.T) {
	b := start(t, Config{})
	page := []byte(`<body style="margin:0"><div style="height:2000px;background:#234">tall</div></body>`)
	one, err := b.Shoot(context.Background(), page, Size{390, 844})
	if err != nil {
		t.Fatal(err)
	}
	two, err := b.Shoot(context.Background(), page, Size{390, 844})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(one.PNG))
	if err != nil || img.Bounds().Dx() != 390 || img.Bounds().Dy() != 2000 {
		t.Fatalf("picture: %v %v, want 390x2000", err, img.Bounds())
	}
	if !bytes.Equal(one.PNG, two.PNG) {
		t.Errorf("two pictures of one page differ")
	}
}

// TestConcurrent: pictures taken at the same time from one browser each
// get their own tab and their own page.
func TestConcurrent(t *testing.T) {
	b := start(t, Config{})
	const n = 4
	errs := make(chan error, n)
	for i := range n {
		go func() {
			width := 300 + 100*i
			pic, err := b.Shoot(context.Background(), []byte(fmt.Sprintf("<h1>page %d</h1>", i)), Size{width, 200})
			if err == nil {
				var img interface{ Bounds() image.Rectangle }
				img, err = png.Decode(bytes.NewReader(pic.PNG))
				if err == nil && img.Bounds().Dx() != width {
					err = fmt.Errorf("picture %d: %d wide, want %d", i, img.Bounds().Dx(), width)
				}
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	b.mu.Lock()
	kept := len(b.idle)
	b.mu.Unlock()
	if kept == 0 || kept > maxIdleTabs {
		t.Errorf("%d tabs kept, want 1 to %d", kept, maxIdleTabs)
	}
}
