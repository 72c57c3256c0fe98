package tools

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"slices"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/policy"
	"github.com/tent-tools/tent-tools/render"
	"github.com/tent-tools/tent-tools/runner"
	"github.com/tent-tools/tent-tools/shot"
)

// ShotInput is the input of shot: a route of the app, who looks at it (as
// for run), the size of the picture, and whether to answer the page's HTML
// instead of its picture.
type ShotInput struct {
	Path string `json:"path"`
	As   string `json:"as,omitempty"`
	Size string `json:"size,omitempty"`
	HTML bool   `json:"html,omitempty"`
}

// ShotPicture is the data answer of shot (docs/pages/shot.md): the route, the
// size as WIDTHxHEIGHT, and the PNG, which marshals as base64.
type ShotPicture struct {
	Path string `json:"path"`
	Size string `json:"size"`
	PNG  []byte `json:"png"`
}

// ShotPage is the data answer of shot with html: the page in place of the
// picture.
type ShotPage struct {
	Path string `json:"path"`
	Size string `json:"size"`
	HTML string `json:"html"`
}

func init() {
	register(Tool{
		Name:     "shot",
		Summary:  "A picture (PNG) of a screen of the app by its route, rendered from the test database as a user in headless Chromium; size phone, tablet, desktop or WIDTHxHEIGHT; html answers the page instead",
		NewInput: func() any { return new(ShotInput) },
		Answer:   ShotPicture{},
		Also:     []any{ShotPage{}},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.shot(ctx, *in.(*ShotInput))
		},
	})
}

// Shot shows a screen (docs/pages/shot.md): the screen whose path matches
// the route is loaded and viewed as in.As on the test database, under the
// policy and limits of run; its tree is rendered to one page (render.Page),
// and the page is pictured in the workspace's browser, in a tab of its own.
// The HTML needs no browser.
func (w *Workspace) shot(ctx context.Context, in ShotInput) (Answer, error) {
	size, err := shot.ParseSize(in.Size)
	if err != nil {
		return Answer{}, err
	}
	html, sc, err := w.screenPage(ctx, in)
	if err != nil {
		return Answer{}, err
	}
	if in.HTML {
		page := ShotPage{Path: in.Path, Size: size.String(), HTML: string(html)}
		return Answer{Text: string(html), Data: page}, nil
	}
	b, err := w.state.ShotBrowser(ctx)
	if err != nil {
		return Answer{}, err
	}
	pic, err := b.Shoot(ctx, html, size)
	if err != nil {
		return Answer{}, err
	}
	ans := ShotPicture{Path: in.Path, Size: size.String(), PNG: pic.PNG}
	whole := ""
	if cfg, err := png.DecodeConfig(bytes.NewReader(pic.PNG)); err == nil {
		whole = fmt.Sprintf(", the whole page %dx%d", cfg.Width, cfg.Height)
	}
	text := fmt.Sprintf("a picture of %s (screen %s in %s, as %s): viewport %s%s, PNG of %d bytes", in.Path, sc.Name, sc.File, asWho(in.As), size, whole, len(pic.PNG))
	if len(pic.Blocked) > 0 {
		text += fmt.Sprintf("; the page asked for %d things from outside, none given", len(pic.Blocked))
	}
	return Answer{Text: text + "\n", Data: ans}, nil
}

// asWho names who a shot is as.
func asWho(as string) string {
	if as == "" {
		return "nobody"
	}
	return as
}

// screenPage runs the screen of in.Path and renders its page.
func (w *Workspace) screenPage(ctx context.Context, in ShotInput) ([]byte, *runner.Screen, error) {
	ix, err := w.appIndex(ctx)
	if err != nil {
		return nil, nil, err
	}
	r, err := w.state.Runner()
	if err != nil {
		return nil, nil, err
	}
	p := w.Options().Policy
	sc, err := r.Screen(ctx, ix, runner.ScreenRequest{
		Route:       in.Path,
		As:          in.As,
		AllowSystem: p.Lets(policy.AlsoRunAsSystem),
		Trusted:     p != nil && slices.Contains(p.Trust, policy.TrustRun),
	})
	if err != nil {
		return nil, nil, err
	}
	html, err := render.Page(sc.Tree, sc.Title, workspaceImages{w})
	if err != nil {
		if te, ok := err.(*diag.ToolError); ok {
			te.With("screen", sc.Name).With("at", sc.File)
		}
		return nil, nil, err
	}
	return html, sc, nil
}

// workspaceImages reads a screen's images as project files, through the
// workspace's resolver: nothing out of the project, nothing in .tent/.
type workspaceImages struct{ w *Workspace }

// ReadFile reads an image file of the project.
func (f workspaceImages) ReadFile(p string) ([]byte, error) {
	rel, err := f.w.Resolve(p, false)
	if err != nil {
		return nil, err
	}
	data, _, err := f.w.state.ReadFile(rel, render.MaxImage, func(n int64) error {
		return diag.Errorf(diag.T9104, "%s is %s; a screen inlines images of %s at most", rel, words.Bytes(n), words.Bytes(render.MaxImage)).With("path", rel)
	})
	return data, err
}
