package main

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// The plot is small multiples: one panel per request (and for the open,
// the memory and the MCP calls), each the medians against the project's
// size, both axes on log scales, so that a line's slope is how the cost
// grows (a slope of 1 is linear in the project) and the gap between two
// lines is their ratio wherever it is read.

// line is one series of a panel.
type line struct {
	label  string
	color  string
	dashed bool
	square bool
	pts    [][2]float64 // tables, value
}

// panel is one small plot.
type panel struct {
	title string
	unit  string
	lines []line
}

const (
	tentColor = "#1f5fa8"
	tsgoColor = "#c8382c"
	panelW    = 290
	panelH    = 230
	cols      = 4
	headH     = 64
	// A panel's margins around its plot.
	left, right, top, bottom = 46, 14, 22, 34
)

var mcpColors = []string{"#1f5fa8", "#2a9d5b", "#8a4fbf", "#d98a1a", "#555555"}

// plot is the run's SVG.
func plot(r *run) string {
	var panels []panel
	server := func(name, color string, dashed, square bool, get func(*serverResult) (float64, bool)) line {
		l := line{label: name, color: color, dashed: dashed, square: square}
		for _, s := range r.Sizes {
			if sr := s.Servers[name]; sr != nil && sr.Err == "" {
				if v, ok := get(sr); ok && v > 0 {
					l.pts = append(l.pts, [2]float64{float64(s.Tables), v})
				}
			}
		}
		return l
	}
	both := func(title, unit string, get func(*serverResult) (float64, bool)) panel {
		return panel{title: title, unit: unit, lines: []line{
			server(tentName, tentColor, false, false, get),
			server(tsgoName, tsgoColor, true, true, get),
		}}
	}
	for _, req := range requests {
		key := req.key
		panels = append(panels, both(req.short, "ms", func(sr *serverResult) (float64, bool) {
			se := sr.Requests[key]
			if se == nil || len(se.MS) == 0 {
				return 0, false
			}
			return median(se.MS), true
		}))
	}
	panels = append(panels,
		both("open: start → first diagnostics", "ms", func(sr *serverResult) (float64, bool) { return sr.OpenMS, true }),
		both("memory after the open", "MB", func(sr *serverResult) (float64, bool) { return sr.MemOpen, true }),
		both("memory at the end", "MB", func(sr *serverResult) (float64, bool) { return sr.MemEnd, true }))
	mcp := panel{title: "MCP calls, warm (tent-tools)", unit: "ms"}
	for i, c := range mcpCalls {
		l := line{label: c.key, color: mcpColors[i%len(mcpColors)]}
		for _, s := range r.Sizes {
			if m := s.MCP[c.key]; m != nil && len(m.MS) > 0 {
				l.pts = append(l.pts, [2]float64{float64(s.Tables), median(m.MS)})
			}
		}
		mcp.lines = append(mcp.lines, l)
	}
	panels = append(panels, mcp)

	rows := (len(panels) + cols - 1) / cols
	w, h := cols*panelW+20, headH+rows*panelH+10
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", w, h)
	fmt.Fprintf(&b, `<text x="14" y="24" font-size="16" font-weight="bold">Language servers on generated tent projects: median against tables (log scales)</text>`+"\n")
	sub := fmt.Sprintf("%s, %d cores (%s), load %s → %s", r.Date, r.Cores, r.CPU, r.LoadStart, r.LoadEnd)
	if r.Commit != "" {
		sub = "main " + r.Commit + ", " + sub
	}
	fmt.Fprintf(&b, `<text x="14" y="42" font-size="11" fill="#444">%s</text>`+"\n", html.EscapeString(sub))
	legend(&b, 14, 56, tentName, tentColor, false, false)
	legend(&b, 130, 56, tsgoName+" (tsc --lsp)", tsgoColor, true, true)
	for i, p := range panels {
		x := 10 + (i%cols)*panelW
		y := headH + (i/cols)*panelH
		// A panel of many lines names them in the slot beside it where
		// that is free, else inside.
		lx, ly := x+left+6, y+top+12
		if i+1 == len(panels) && (i+1)%cols != 0 {
			lx, ly = x+panelW+10, y+top+12
		}
		drawPanel(&b, p, x, y, lx, ly)
	}
	b.WriteString("</svg>\n")
	return b.String()
}

func legend(b *strings.Builder, x, y int, label, color string, dashed, square bool) {
	dash := ""
	if dashed {
		dash = ` stroke-dasharray="6 4"`
	}
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>`, x, y-4, x+28, y-4, color, dash)
	marker(b, float64(x+14), float64(y-4), color, square)
	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="12">%s</text>`+"\n", x+34, y, html.EscapeString(label))
}

func marker(b *strings.Builder, x, y float64, color string, square bool) {
	if square {
		fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="7" height="7" fill="%s"/>`, x-3.5, y-3.5, color)
	} else {
		fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="3.8" fill="%s"/>`, x, y, color)
	}
}

// drawPanel draws one panel with its top left corner at x, y.
func drawPanel(b *strings.Builder, p panel, x, y, legendX, legendY int) {
	pw, ph := float64(panelW-left-right), float64(panelH-top-bottom)
	ox, oy := float64(x+left), float64(y+top)
	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="12" font-weight="bold">%s</text>`+"\n", x+4, y+14, html.EscapeString(p.title))
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, l := range p.lines {
		for _, pt := range l.pts {
			xmin, xmax = math.Min(xmin, pt[0]), math.Max(xmax, pt[0])
			ymin, ymax = math.Min(ymin, pt[1]), math.Max(ymax, pt[1])
		}
	}
	fmt.Fprintf(b, `<rect x="%.0f" y="%.0f" width="%.0f" height="%.0f" fill="#fafafa" stroke="#bbb"/>`+"\n", ox, oy, pw, ph)
	if math.IsInf(xmin, 1) {
		fmt.Fprintf(b, `<text x="%.0f" y="%.0f" font-size="11" fill="#888" text-anchor="middle">no data</text>`+"\n", ox+pw/2, oy+ph/2)
		return
	}
	// x: the sizes, with a margin; one size is drawn in the middle.
	lx0, lx1 := math.Log10(xmin), math.Log10(xmax)
	if lx1-lx0 < 1e-9 {
		lx0, lx1 = lx0-0.5, lx1+0.5
	}
	padX := (lx1 - lx0) * 0.08
	lx0, lx1 = lx0-padX, lx1+padX
	// y: whole decades, or a closer span where the values are close.
	// Room above and below the extreme points for their labels.
	ly0, ly1 := math.Floor(math.Log10(ymin)-0.12), math.Ceil(math.Log10(ymax)+0.12)
	if ly1-ly0 < 1 {
		ly1 = ly0 + 1
	}
	px := func(v float64) float64 { return ox + (math.Log10(v)-lx0)/(lx1-lx0)*pw }
	py := func(v float64) float64 { return oy + ph - (math.Log10(v)-ly0)/(ly1-ly0)*ph }
	// The y ticks: each decade, and 2 and 5 where there are few decades.
	for d := ly0; d <= ly1+1e-9; d++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, d)
			if math.Log10(v) > ly1+1e-9 || (m != 1 && ly1-ly0 > 2) {
				continue
			}
			yy := py(v)
			stroke := "#e4e4e4"
			if m == 1 {
				stroke = "#cfcfcf"
			}
			fmt.Fprintf(b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="%s"/>`, ox, yy, ox+pw, yy, stroke)
			fmt.Fprintf(b, `<text x="%.0f" y="%.1f" font-size="10" fill="#444" text-anchor="end">%s</text>`+"\n", ox-4, yy+3.5, tick(v))
		}
	}
	fmt.Fprintf(b, `<text x="%d" y="%.0f" font-size="10" fill="#444" transform="rotate(-90 %d %.0f)" text-anchor="middle">%s</text>`+"\n",
		x+10, oy+ph/2, x+10, oy+ph/2, p.unit)
	// The x ticks: the sizes measured.
	seen := map[float64]bool{}
	for _, l := range p.lines {
		for _, pt := range l.pts {
			if seen[pt[0]] {
				continue
			}
			seen[pt[0]] = true
			xx := px(pt[0])
			fmt.Fprintf(b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#e4e4e4"/>`, xx, oy, xx, oy+ph)
			fmt.Fprintf(b, `<text x="%.1f" y="%.0f" font-size="10" fill="#444" text-anchor="middle">%s</text>`+"\n", xx, oy+ph+13, thousands(int(pt[0])))
		}
	}
	fmt.Fprintf(b, `<text x="%.0f" y="%.0f" font-size="10" fill="#444" text-anchor="middle">tables</text>`+"\n", ox+pw/2, oy+ph+26)
	for i, l := range p.lines {
		if len(l.pts) == 0 {
			continue
		}
		var path []string
		for _, pt := range l.pts {
			path = append(path, fmt.Sprintf("%.1f,%.1f", px(pt[0]), py(pt[1])))
		}
		dash := ""
		if l.dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s/>`+"\n", strings.Join(path, " "), l.color, dash)
		for _, pt := range l.pts {
			marker(b, px(pt[0]), py(pt[1]), l.color, l.square)
			if len(p.lines) > 2 {
				continue // too many labels to read: the table has the values
			}
			// The value beside its point: above where it is the highest of
			// the panel's points at that size, else below, so that two close
			// lines keep their labels apart.
			dy := -7.0
			if !highest(p.lines, i, pt) {
				dy = 14
			}
			fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="9" fill="%s" text-anchor="middle">%s</text>`+"\n", px(pt[0]), py(pt[1])+dy, l.color, short(pt[1]))
		}
	}
	// A panel of many lines (MCP's) names them.
	if len(p.lines) > 2 {
		for i, l := range p.lines {
			ly := legendY + i*14
			fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>`, legendX, ly-3, legendX+14, ly-3, l.color)
			fmt.Fprintf(b, `<text x="%d" y="%d" font-size="11">%s</text>`+"\n", legendX+18, ly+1, html.EscapeString(l.label))
		}
	}
}

// highest says whether line i's point is the highest of the panel's
// points at its size (a tie goes to the first line).
func highest(lines []line, i int, pt [2]float64) bool {
	for j, l := range lines {
		for _, q := range l.pts {
			if j != i && q[0] == pt[0] && (q[1] > pt[1] || q[1] == pt[1] && j < i) {
				return false
			}
		}
	}
	return true
}

// tick writes an axis value: 0.1, 2, 50, 1k, 20k.
func tick(v float64) string {
	switch {
	case v >= 1000:
		return fmt.Sprintf("%gk", v/1000)
	default:
		return fmt.Sprintf("%g", v)
	}
}

// short writes a point's value with two or three digits.
func short(v float64) string {
	switch {
	case v < 1:
		return fmt.Sprintf("%.2f", v)
	case v < 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.0f", v)
	}
}
