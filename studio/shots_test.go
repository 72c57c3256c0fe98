package studio_test

import (
	"bytes"
	"fmt"

	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tent-tools/tent-tools/internal/golden"
)

// The pictures of docs/pages/studio.md, taken in Chromium on the shop
// sample and rewritten by
//
//	go test ./studio -run TestShots -update
//
// Without -update the test takes them all the same (each view must draw
// at both sizes) and holds the committed ones to their sizes.

// shotsDir is where the pictures are committed.
const shotsDir = "../docs/studio"

// sizes are the two the docs show: a laptop and a phone.
var sizes = []struct {
	name string
	w, h int
}{{"desktop", 1280, 800}, {"phone", 390, 844}}

// views are the pictures: a route of the page, and what must show before
// the picture is taken. Each is what a person sees without scrolling (on
// a phone the inspector is a sheet over the diagram).
var views = []struct {
	name, route, ready string
	then               string // a testid to click first ("" none)
}{
	{"diagram", "#/tables", `document.querySelector('[data-testid="diagram"]').dataset.laidOut === 'yes'`, ""},
	{"inspector", "#/tables/orders", `(document.querySelector('[data-testid="inspector"]')||{dataset:{}}).dataset.table === 'orders'`, ""},
	{"grid", "#/tables/products", `!!document.querySelector('[data-testid="grid"]') && Number(document.querySelector('[data-testid="grid"]').dataset.rows) > 0`, "inspector-data"},
	{"flow", "#/flows/checkout", `(document.querySelector('[data-testid="step-0"]')||{dataset:{}}).dataset.step === 'reserveStock'`, ""},
}

func TestShots(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "shop")
	s := startStudio(t, dir)
	for _, size := range sizes {
		ctx := openPage(t, s, size.w, size.h)
		for _, v := range views {
			name := v.name + "-" + size.name + ".png"
			run(t, ctx, "open "+v.route, chromedp.Navigate(s.base+"/"+v.route))
			if v.then != "" {
				click(t, ctx, v.then)
			}
			waitJS(t, ctx, name, v.ready, 10*time.Second)
			time.Sleep(300 * time.Millisecond) // the layout's and the fonts' last frame
			pic, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			cfg, err := png.DecodeConfig(bytes.NewReader(pic))
			if err != nil || cfg.Width != size.w || cfg.Height != size.h {
				t.Fatalf("%s: %dx%d (%v); want %dx%d", name, cfg.Width, cfg.Height, err, size.w, size.h)
			}
			if blank(t, pic) {
				t.Fatalf("%s is one colour: the page drew nothing", name)
			}
			path := filepath.Join(shotsDir, name)
			if golden.Updating() {
				if err := os.WriteFile(path, pic, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatalf("%v (go test ./studio -run TestShots -update takes it)", err)
			}
			committed, err := png.DecodeConfig(f)
			f.Close()
			if err != nil || committed.Width != size.w || committed.Height != size.h {
				t.Errorf("%s is %dx%d (%v); want %dx%d", path, committed.Width, committed.Height, err, size.w, size.h)
			}
		}
	}
}

// blank reports whether a picture holds one colour only.
func blank(t *testing.T, pic []byte) bool {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(pic))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	first := fmt.Sprint(img.At(b.Min.X, b.Min.Y))
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			if fmt.Sprint(img.At(x, y)) != first {
				return false
			}
		}
	}
	return true
}

// TestDocsPage: the docs tool serves the studio's page, and each picture
// it shows is committed.
func TestDocsPage(t *testing.T) {
	t.Parallel()
	out, err := exec.Command(bin, "docs", "studio").Output()
	if err != nil {
		t.Fatalf("tent-tools docs studio: %v", err)
	}
	if !strings.HasPrefix(string(out), "# studio\n") || !strings.Contains(string(out), "tent-tools studio") {
		t.Fatalf("tent-tools docs studio printed:\n%.300s", out)
	}
	pics := regexp.MustCompile(`\]\(\.\./studio/([a-z-]+\.png)\)`).FindAllStringSubmatch(string(out), -1)
	if len(pics) != len(views)*len(sizes) {
		t.Errorf("the page shows %d pictures; TestShots takes %d", len(pics), len(views)*len(sizes))
	}
	for _, m := range pics {
		if _, err := os.Stat(filepath.Join(shotsDir, m[1])); err != nil {
			t.Errorf("the page shows %s: %v", m[1], err)
		}
	}
}
