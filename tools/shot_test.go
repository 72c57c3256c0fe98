package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tent-tools/tent-tools/internal/chromiumtest"
	"github.com/tent-tools/tent-tools/internal/golden"
	"github.com/tent-tools/tent-tools/shot"
)

// screensDir is the test project with a screen that uses every component,
// and screens that must fail or must not reach outside their page.
const screensDir = "../testdata/projects/screens"

// shopScreens are a route of every screen of shop, with who looks.
var shopScreens = []struct{ name, route, as string }{
	{"dashboard", "/admin", "u2"},
	{"products", "/categories/kitchen", ""},
	{"product", "/products/p1", "chen@example.com"},
	{"order", "/orders/o2", "u3"},
}

// openProject opens a workspace over a copy of a test project.
func openProject(t testing.TB, src string) *Workspace {
	t.Helper()
	w, err := Open(copyProject(t, src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// TestShotHTML compares the page of every screen of shop, and of the
// screen that uses every component, with its golden HTML.
func TestShotHTML(t *testing.T) {
	type page struct{ project, name, route, as string }
	var pages []page
	for _, s := range shopScreens {
		pages = append(pages, page{shopDir, "shop-" + s.name, s.route, s.as})
	}
	pages = append(pages, page{screensDir, "screens-kit", "/kit", "u1"}, page{screensDir, "screens-note", "/notes/n2", ""})
	ws := map[string]*Workspace{}
	for _, p := range pages {
		w := ws[p.project]
		if w == nil {
			w = openProject(t, p.project)
			ws[p.project] = w
		}
		in, _ := json.Marshal(ShotInput{Path: p.route, As: p.as, HTML: true})
		ans, err := call(w, "shot", string(in))
		if err != nil {
			t.Fatalf("%s: %v", p.route, err)
		}
		got := ans.Data.(ShotPage)
		if got.Path != p.route || got.Size != "1280x800" || got.HTML != ans.Text {
			t.Errorf("%s: answer %q %q, text and html differ: %v", p.route, got.Path, got.Size, got.HTML != ans.Text)
		}
		golden.Check(t, "testdata/shot/"+p.name+".html", []byte(got.HTML))
	}
}

// TestShotEscapingPrivacy: a row's text that looks like HTML stays text,
// and no private column's value reaches a page, whoever looks.
func TestShotEscapingPrivacy(t *testing.T) {
	w := openProject(t, screensDir)
	for _, c := range []struct{ route, as string }{{"/kit", "u1"}, {"/notes/n1", ""}, {"/notes/n2", "u2"}, {"/notes/n3", "u1"}} {
		in, _ := json.Marshal(ShotInput{Path: c.route, As: c.as, HTML: true})
		ans, err := call(w, "shot", string(in))
		if err != nil {
			t.Fatalf("%s: %v", c.route, err)
		}
		html := ans.Data.(ShotPage).HTML
		for _, banned := range []string{"<img src=x", "<script", "<b>bold", "12 Analytical Row", "Bell Labs", "2C-517", "ada-keeps-this-quiet", ">homeAddress<"} {
			if strings.Contains(html, banned) {
				t.Errorf("%s as %q: the page holds %q", c.route, c.as, banned)
			}
		}
	}
	ans, err := call(w, "shot", `{"path":"/notes/n2","html":true}`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ans.Text, `<p class="t-text">&lt;img src=x onerror=alert(1)&gt;</p>`) {
		t.Errorf("the note's text is not shown as text:\n%s", ans.Text)
	}
}

// TestShotErrors: what a shot refuses, with its code, before any browser.
func TestShotErrors(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	w := openProject(t, screensDir)
	cases := []struct{ input, code, says string }{
		{`{"path":"/nowhere"}`, "T9103", "the nearest"},
		{`{"path":"/kit","size":"huge"}`, "T9102", "size"},
		{`{"path":"/broken"}`, "T4003", "screens/faults.tsx:8"},
		{`{"path":"/blank"}`, "T4011", "blankScreen"},
		{`{"path":"/outside/image/` + port + `"}`, "T4012", "project file or a data URL"},
		{`{"path":"/outside/img/` + port + `"}`, "T4012", "project file or a data URL"},
		{`{"path":"/outside/passwd"}`, "T4012", "file:///etc/passwd"},
		{`{"path":"/outside/iframe"}`, "T4012", "<iframe>"},
		{`{"path":"/outside/escape"}`, "T9105", "../../../tmp/outside.png"},
		{`{"path":"/kit","as":"nobody@example.com"}`, "T9103", "no row of users"},
	}
	for _, c := range cases {
		for _, html := range []bool{true, false} {
			var in map[string]any
			json.Unmarshal([]byte(c.input), &in)
			in["html"] = html
			b, _ := json.Marshal(in)
			_, err := call(w, "shot", string(b))
			te := wantCode(t, err, c.code)
			if !strings.Contains(te.Message, c.says) {
				t.Errorf("%s: %q, want it to say %q", b, te.Message, c.says)
			}
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the local server saw %d requests, want 0", n)
	}
	// No browser was started for any of them.
	if w.state.RunningBrowser() != nil {
		t.Errorf("a refused shot started the browser")
	}
}

// TestShotPictures takes a picture of every screen of shop in real
// Chromium: a PNG of the requested width, not blank (more than one colour,
// the heading's region differs from the background), the same bytes twice.
func TestShotPictures(t *testing.T) {
	chromiumtest.Need(t, shot.Find)
	marked := t.TempDir()
	t.Setenv("TMPDIR", marked)
	w := openProject(t, shopDir)
	for _, s := range shopScreens {
		for _, size := range []struct {
			name  string
			width int
		}{{"phone", 390}, {"", 1280}} {
			in, _ := json.Marshal(ShotInput{Path: s.route, As: s.as, Size: size.name})
			one, err := call(w, "shot", string(in))
			if err != nil {
				t.Fatalf("%s: %v", s.route, err)
			}
			pic := one.Data.(ShotPicture)
			img, err := png.Decode(bytes.NewReader(pic.PNG))
			if err != nil {
				t.Fatalf("%s: not a PNG: %v", s.route, err)
			}
			if img.Bounds().Dx() != size.width {
				t.Errorf("%s %s: %d wide, want %d", s.route, size.name, img.Bounds().Dx(), size.width)
			}
			if n := colours(img, img.Bounds()); n < 2 {
				t.Errorf("%s %s: %d colours: blank", s.route, size.name, n)
			}
			// The page's title stands in the top 80 pixels, inside the
			// page's margin: that region holds more than the background.
			title := image.Rect(20, 10, min(size.width, 600), 80)
			if n := colours(img, title); n < 2 {
				t.Errorf("%s %s: the heading's region is one colour", s.route, size.name)
			}
			two, err := call(w, "shot", string(in))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(pic.PNG, two.Data.(ShotPicture).PNG) {
				t.Errorf("%s %s: two shots of the same screen and data differ", s.route, size.name)
			}
			if os.Getenv("TENT_SHOT_KEEP") != "" {
				os.WriteFile(fmt.Sprintf("%s/%s-%s.png", os.Getenv("TENT_SHOT_KEEP"), strings.ReplaceAll(s.route[1:], "/", "-"), pic.Size), pic.PNG, 0o644)
			}
		}
	}
	data, err := JSON(ShotPicture{Path: "/x", Size: "1x1", PNG: []byte{1, 2}})
	if err != nil || !strings.Contains(string(data), `"png": "AQI="`) {
		t.Errorf("the answer's png is not base64: %s %v", data, err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if live := chromiumtest.Live(marked); len(live) > 0 {
		t.Errorf("Chromium processes left running after Close:\n%s", strings.Join(live, "\n"))
	}
}

// colours counts the colours of a region of a picture, up to 16.
func colours(img image.Image, r image.Rectangle) int {
	seen := map[color.RGBA]bool{}
	for y := r.Min.Y; y < r.Max.Y && y < img.Bounds().Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X && x < img.Bounds().Max.X; x++ {
			cr, cg, cb, ca := img.At(x, y).RGBA()
			seen[color.RGBA{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), uint8(ca >> 8)}] = true
			if len(seen) >= 16 {
				return len(seen)
			}
		}
	}
	return len(seen)
}

// TestShotWarm: a workspace keeps one browser across shots.
func TestShotWarm(t *testing.T) {
	chromiumtest.Need(t, shot.Find)
	w := openProject(t, shopDir)
	ctx := context.Background()
	if _, err := w.Shot(ctx, ShotInput{Path: "/admin", As: "u2", Size: "400x300"}); err != nil {
		t.Fatal(err)
	}
	first := w.state.RunningBrowser()
	if _, err := w.Shot(ctx, ShotInput{Path: "/products/p2", Size: "400x300"}); err != nil {
		t.Fatal(err)
	}
	if first == nil || w.state.RunningBrowser() != first {
		t.Errorf("the second shot did not use the workspace's browser")
	}
	// A workspace given a shared browser closes its own, and takes its
	// pictures in the shared one, which its Close leaves running.
	shared := NewBrowser()
	defer shared.Close()
	if err := w.ShareBrowser(shared); err != nil {
		t.Fatal(err)
	}
	if _, err := first.Shoot(ctx, []byte("<p>x</p>"), shot.Size{Width: 200, Height: 200}); err == nil {
		t.Errorf("the workspace's own browser still runs after ShareBrowser")
	}
	if _, err := w.Shot(ctx, ShotInput{Path: "/admin", As: "u2", Size: "400x300"}); err != nil {
		t.Fatal(err)
	}
	if shared.Running() == nil {
		t.Fatalf("the shot did not use the shared browser")
	}
	w.Close()
	if _, err := shared.Running().Shoot(ctx, []byte("<p>x</p>"), shot.Size{Width: 200, Height: 200}); err != nil {
		t.Errorf("the workspace's Close stopped the shared browser: %v", err)
	}
}
