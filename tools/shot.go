package tools

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"slices"
	"sync"

	"github.com/tent-tools/tent-tools/diag"
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

// ShotPicture is the data answer of shot (tools.md §7): the route, the
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
	Register(Tool{
		Name:     "shot",
		Summary:  "A picture (PNG) of a screen of the app by its route, rendered from the test database as a user in headless Chromium; size phone, tablet, desktop or WIDTHxHEIGHT; html answers the page instead",
		NewInput: func() any { return new(ShotInput) },
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.Shot(ctx, *in.(*ShotInput))
		},
	})
}

// Shot shows a screen (tools.md §5, shot): the screen whose path matches
// the route is loaded and viewed as in.As on the test database, under the
// policy and limits of run; its tree is rendered to one page (render.Page),
// and the page is pictured in the workspace's browser, in a tab of its own.
// The HTML needs no browser.
func (w *Workspace) Shot(ctx context.Context, in ShotInput) (Answer, error) {
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
	b, err := w.browser(ctx)
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
	r, err := w.runnerFor()
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
	data, _, err := f.w.readFile(rel, render.MaxImage, func(n int64) error {
		return diag.Errorf(diag.T9104, "%s is %s; a screen inlines images of %s at most", rel, size(n), size(render.MaxImage)).With("path", rel)
	})
	return data, err
}

// Browser is the browser that shot's pictures are taken in: started by
// the first picture, kept until Close, each picture a tab of it. A
// workspace has one of its own; a host that keeps many workspaces (the
// workspaces handle) gives them one to share (Workspace.ShareBrowser), so
// its shots, in whichever workspace, are tabs of one browser. It is safe
// for concurrent use.
type Browser struct {
	mu      sync.Mutex
	running *shot.Browser
	closed  bool
}

// NewBrowser makes a Browser; nothing starts until the first picture.
func NewBrowser() *Browser { return &Browser{} }

// get answers the running browser, starting it where none runs; progress
// hears of the start.
func (s *Browser) get(ctx context.Context, progress Progress) (*shot.Browser, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, fmt.Errorf("shot: the browser is closed")
	}
	if s.running != nil {
		return s.running, nil
	}
	_, end := progress.begin("starting the browser", 0)
	b, err := shot.Start(ctx, shot.Config{})
	end()
	if err != nil {
		return nil, err
	}
	s.running = b
	return b, nil
}

// Close stops the browser, if it runs, and every process it started; a
// closed Browser starts no other (a picture asked of it fails).
func (s *Browser) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.running == nil {
		return nil
	}
	err := s.running.Close()
	s.running = nil
	return err
}

// ShareBrowser makes the workspace's pictures tabs of b, which the caller
// keeps and closes; a browser of the workspace's own is closed.
func (w *Workspace) ShareBrowser(b *Browser) error {
	w.shotMu.Lock()
	defer w.shotMu.Unlock()
	var err error
	if w.shots != nil && w.ownsShots {
		err = w.shots.Close()
	}
	w.shots, w.ownsShots = b, false
	return err
}

// browser answers the workspace's browser: a shared one, or its own, made
// by the first picture and closed by Close.
func (w *Workspace) browser(ctx context.Context) (*shot.Browser, error) {
	w.shotMu.Lock()
	if w.shots == nil {
		w.shots, w.ownsShots = NewBrowser(), true
	}
	b := w.shots
	w.shotMu.Unlock()
	return b.get(ctx, w.opts.Progress)
}
