package studio_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/studio"
)

// The studio's numbers (docs/pages/studio.md, "Speed and size"):
//
//	go test ./studio -run '^$' -bench . -benchtime 20x
//
// tent/model and a one-op tent/apply over the WebSocket, warm, and the
// page's first paint, at 1,000 tables; the page's size.

// generated writes a project of n tables (cmd/tent-gen's) into a new folder.
func generated(b testing.TB, n int) string {
	b.Helper()
	dir := b.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: n, Seed: 1})); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkModel1000: tent/model, warm, over the page's WebSocket.
func BenchmarkModel1000(b *testing.B) {
	s := startStudio(b, generated(b, 1000))
	ss := s.open(b, nil)
	raw, err := ss.call("tent/model", map[string]any{}) // cold: the index, the check
	if err != nil {
		b.Fatal(err)
	}
	size := len(raw)
	for b.Loop() {
		if _, err := ss.call("tent/model", map[string]any{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(size), "answer-bytes")
}

// BenchmarkModelSince1000: tent/model, warm, from a page that holds the
// model already (since its tag): the unchanged answer.
func BenchmarkModelSince1000(b *testing.B) {
	s := startStudio(b, generated(b, 1000))
	ss := s.open(b, nil)
	raw, err := ss.call("tent/model", map[string]any{})
	if err != nil {
		b.Fatal(err)
	}
	var m struct {
		Tag string `json:"tag"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.Tag == "" {
		b.Fatalf("tent/model answered no tag (%v)", err)
	}
	size := 0
	for b.Loop() {
		raw, err := ss.call("tent/model", map[string]any{"since": m.Tag})
		if err != nil {
			b.Fatal(err)
		}
		size = len(raw)
	}
	b.ReportMetric(float64(size), "answer-bytes")
}

// BenchmarkApply1000: a one-op tent/apply (setColumn, a required column
// made optional and back), written by the server, one point each.
func BenchmarkApply1000(b *testing.B) {
	s := startStudio(b, generated(b, 1000))
	ss := s.open(b, nil)
	raw, err := ss.call("tent/model", map[string]any{})
	if err != nil {
		b.Fatal(err)
	}
	var m struct {
		Tables []struct {
			Name    string `json:"name"`
			Columns []struct {
				Name     string `json:"name"`
				Optional bool   `json:"optional"`
				Ref      any    `json:"ref"`
			} `json:"columns"`
		} `json:"tables"`
	}
	json.Unmarshal(raw, &m)
	column := ""
	for _, t := range m.Tables {
		for _, c := range t.Columns {
			if !c.Optional && c.Ref == nil && column == "" {
				column = t.Name + "." + c.Name
			}
		}
	}
	if column == "" {
		b.Fatal("no required column in the generated project")
	}
	optional := true
	apply := func() {
		if _, err := ss.call("tent/apply", map[string]any{"ops": []any{map[string]any{"op": "setColumn", "column": column, "optional": optional}}}); err != nil {
			b.Fatal(err)
		}
		optional = !optional
	}
	apply() // warm
	apply()
	for b.Loop() {
		apply()
	}
}

// BenchmarkFirstPaint1000: the page opened on 1,000 tables in Chromium:
// the browser's first contentful paint, and the time until the diagram
// is drawn (a box shown and the layout done: the model asked, laid out,
// drawn; a page may draw only the boxes in view).
func BenchmarkFirstPaint1000(b *testing.B) {
	s := startStudio(b, generated(b, 1000))
	var fcp, drawn float64
	n := 0
	for b.Loop() {
		ctx := tab(b, 1280, 800)
		start := time.Now()
		if err := chromedp.Do(ctx, chromedp.Navigate(s.url), chromedp.WaitVisible(chromedp.CSS(tid("studio")))); err != nil {
			b.Fatal(err)
		}
		for {
			ready, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector('[data-testid^="table-node-"]') && !!document.querySelector('[data-testid="diagram"][data-laid-out="yes"]')`))
			if err != nil {
				b.Fatal(err)
			}
			if ready {
				break
			}
			if time.Since(start) > 50*time.Second {
				b.Fatal("the diagram is not drawn after 50s")
			}
			time.Sleep(10 * time.Millisecond)
		}
		marks, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`Object.fromEntries(performance.getEntriesByType('mark').map(m => [m.name, Math.round(m.startTime)]))`))
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("open %d: drawn after %s; the page's marks (ms from its start) %v", n, time.Since(start), marks)
		drawn += float64(time.Since(start).Milliseconds())
		paint, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`(performance.getEntriesByName('first-contentful-paint')[0]||{startTime:-1}).startTime`))
		if err != nil {
			b.Fatal(err)
		}
		fcp += paint
		n++
	}
	b.ReportMetric(fcp/float64(n), "fcp-ms")
	b.ReportMetric(drawn/float64(n), "drawn-ms")
}

// BenchmarkPageSize: the page's bytes as embedded, and gzipped (each file
// at gzip's default level).
func BenchmarkPageSize(b *testing.B) {
	var raw, zipped int
	for b.Loop() {
		raw, zipped = 0, 0
		err := fs.WalkDir(studio.Page(), ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(studio.Page(), path)
			if err != nil {
				return err
			}
			var z bytes.Buffer
			w := gzip.NewWriter(&z)
			w.Write(data)
			w.Close()
			raw += len(data)
			zipped += z.Len()
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(raw), "bytes")
	b.ReportMetric(float64(zipped), "gzip-bytes")
	fmt.Fprintf(os.Stderr, "the page: %d bytes, %d gzipped\n", raw, zipped)
}
