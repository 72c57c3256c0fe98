package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/chromiumtest"
	"github.com/tent-tools/tent-tools/shot"
	"github.com/tent-tools/tent-tools/tools"
)

// TestShotCommand runs shot through the binary: the HTML (no browser
// needed), the errors and the usage, and, with Chromium, the picture in a
// file and in --json.
func TestShotCommand(t *testing.T) {
	dir := shop(t)
	html := tentTools(t, dir, "", "shot", "--html", "/orders/o2", "--as", "u3")
	if html.exit != 0 || !strings.HasPrefix(html.stdout, "<!doctype html>") || !strings.Contains(html.stdout, "<h1 class=\"t-title\">Order o2</h1>") {
		t.Errorf("--html: exit %d\n%s\n%s", html.exit, html.stdout, html.stderr)
	}
	page := filepath.Join(t.TempDir(), "o2.html")
	if r := tentTools(t, dir, "", "shot", "--html", "/orders/o2", "--as", "u3", "-o", page); r.exit != 0 || !strings.HasPrefix(r.stdout, "wrote "+page) {
		t.Errorf("--html -o: exit %d %s %s", r.exit, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(page); string(b) != html.stdout {
		t.Errorf("--html -o wrote another page than --html printed")
	}
	for _, c := range []struct {
		args       []string
		exit       int
		stderrHold string
	}{
		{[]string{"shot"}, 2, "one ROUTE"},
		{[]string{"shot", "--html", "/order/o2"}, 1, "T9103: no screen has the path /order/o2; did you mean /orders/:id? (the nearest: /orders/:id"},
		{[]string{"shot", "--html", "/orders/o2"}, 1, "T4003: TypeError: Cannot read property 'buyer' of undefined (at screens/order.tsx:12:48)"},
		{[]string{"shot", "--html", "--size", "big", "/admin"}, 1, "T9102: size \"big\""},
	} {
		r := tentTools(t, dir, "", c.args...)
		if r.exit != c.exit || !strings.Contains(r.stderr, c.stderrHold) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, r.exit, r.stderr, c.exit, c.stderrHold)
		}
	}

	chromiumtest.Need(t, shot.Find)
	marked := t.TempDir()
	pic := filepath.Join(t.TempDir(), "paid.png")
	cmd := exec.Command(bin, "shot", "/orders/o2", "--as", "chen@example.com", "--size", "phone", "-o", pic)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+marked)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	b, err := os.ReadFile(pic)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil || img.Bounds().Dx() != 390 {
		t.Fatalf("-o %s: %v %v, want a PNG 390 wide", pic, err, img)
	}
	if live := chromiumtest.Live(marked); len(live) > 0 {
		t.Errorf("the command left Chromium running:\n%s", strings.Join(live, "\n"))
	}
	// Without -o: a file of the route in the user's cache folder, outside
	// the project, so that history records no change made outside the
	// tools after it (the README's example).
	cache := t.TempDir()
	cmd = exec.Command(bin, "shot", "/orders/o2", "--as", "chen@example.com", "--size", "phone")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache)
	if out, err = cmd.CombinedOutput(); err != nil {
		t.Fatalf("shot without -o: %v: %s", err, out)
	}
	want := filepath.Join(cache, "tent-tools", "shots", filepath.Base(dir), "orders-o2-phone-chen-example.com.png")
	if !strings.HasPrefix(string(out), "wrote "+want) {
		t.Errorf("shot without -o: %s, want it to write %s", out, want)
	}
	if _, err := os.Stat(want); err != nil {
		t.Errorf("shot without -o: %v", err)
	}
	if h := tentTools(t, dir, "", "history", "--newest", "1"); strings.Contains(h.stdout, "outside") {
		t.Errorf("history after shot records a change made outside the tools:\n%s", h.stdout)
	}
	// -o into the project: written, with a note that it is a change.
	if r := tentTools(t, dir, "", "shot", "--html", "/admin", "--as", "u2", "-o", "admin.html"); r.exit != 0 || !strings.Contains(r.stderr, "admin.html is in the project") {
		t.Errorf("-o into the project: exit %d, stderr %q", r.exit, r.stderr)
	}

	r := tentTools(t, dir, "", "shot", "--json", "/admin", "--as", "u2", "--size", "500x400")
	var ans struct{ Path, Size, PNG string }
	if err := json.Unmarshal([]byte(r.stdout), &ans); err != nil || r.exit != 0 {
		t.Fatalf("--json: %v exit %d %s", err, r.exit, r.stderr)
	}
	raw, err := base64.StdEncoding.DecodeString(ans.PNG)
	if err != nil || ans.Path != "/admin" || ans.Size != "500x400" {
		t.Fatalf("--json answer %s %s: %v", ans.Path, ans.Size, err)
	}
	if img, err := png.Decode(bytes.NewReader(raw)); err != nil || img.Bounds().Dx() != 500 {
		t.Errorf("--json png: %v", err)
	}
}

// BenchmarkColdShot is `tent-tools shot` as a whole process: start to the
// PNG written, the browser's start included (the test database and the
// bundles made by an earlier shot).
func BenchmarkColdShot(b *testing.B) {
	chromiumtest.Need(b, shot.Find)
	dir := shopFor(b)
	out := filepath.Join(b.TempDir(), "o.png")
	args := []string{"shot", "/orders/o2", "--as", "u3", "--size", "phone", "-o", out}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	if o, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, o)
	}
	timeProcess(b, func() *exec.Cmd {
		c := exec.Command(bin, args...)
		c.Dir = dir
		return c
	})
}

// BenchmarkWarmShot is a shot in a long-lived workspace: its browser
// started, a new tab per shot.
func BenchmarkWarmShot(b *testing.B) {
	chromiumtest.Need(b, shot.Find)
	w, err := tools.Open(shopFor(b), tools.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	in := tools.ShotInput{Path: "/orders/o2", As: "u3", Size: "phone"}
	if _, err := w.Shot(context.Background(), in); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := w.Shot(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWarmShotHTML is the page alone in a long-lived workspace: the
// screen's load and view, and the rendering, without the browser.
func BenchmarkWarmShotHTML(b *testing.B) {
	w, err := tools.Open(shopFor(b), tools.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	in := tools.ShotInput{Path: "/orders/o2", As: "u3", HTML: true}
	for b.Loop() {
		if _, err := w.Shot(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChromiumStart is Chromium alone, started headless to print a
// blank page and end: what BenchmarkColdShot cannot go below, in the same run.
func BenchmarkChromiumStart(b *testing.B) {
	chromium, err := shot.Find()
	if err != nil {
		if os.Getenv("CI") != "" {
			b.Fatal(err)
		}
		b.Skip(err)
	}
	profile := b.TempDir()
	timeProcess(b, func() *exec.Cmd {
		return exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir="+profile, "--dump-dom", "about:blank")
	})
}
