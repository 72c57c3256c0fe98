// Package shot takes the picture of a screen's page in a real headless
// Chromium, driven through chromedp: one browser per Browser value, a tab
// per picture while it is taken (kept for a later one). The browser gets the page and nothing else: every request
// but the page itself is failed before it leaves the browser, JavaScript
// is off, the page's origin is a name that resolves nowhere (so it may
// open no file), and the browser resolves no host name at all.
//
// It imports diag only; only this package imports chromedp.
package shot

import (
	"context"
	"fmt"
	"iter"
	"math"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/tent-tools/tent-tools/diag"
)

// ExecEnv names the environment variable that points at the Chromium to use.
const ExecEnv = "TENT_CHROMIUM"

// execNames are the names a Chromium goes by on PATH, in the order tried.
var execNames = []string{"chromium", "chromium-browser", "google-chrome"}

// The bounds of a browser's work (docs/pages/shot.md: a hung page costs a
// bounded time, T4004).
const (
	DefaultStartLimit = 20 * time.Second
	DefaultPageLimit  = 15 * time.Second
	// MaxHeight bounds a full-page picture, in CSS pixels.
	MaxHeight = 16384
)

// pageURL is where the page is served from inside the browser: a name
// under .invalid, which never resolves, so nothing but the browser's own
// interception can answer it.
const pageURL = "http://screen.tent.invalid/"

// Find answers the Chromium to run: TENT_CHROMIUM where set, else the
// first of chromium, chromium-browser, google-chrome on PATH; none is T4010,
// telling how to install one.
func Find() (string, error) {
	if p := os.Getenv(ExecEnv); p != "" {
		info, err := os.Stat(p)
		if err != nil || info.IsDir() || info.Mode()&0o111 == 0 {
			return "", diag.Errorf(diag.T4010, "%s=%s is not a program that can run; point it at a Chromium, or unset it to look on PATH", ExecEnv, p)
		}
		return p, nil
	}
	for _, name := range execNames {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", diag.Errorf(diag.T4010, "no Chromium found: none of %s is on PATH and %s is not set. Install one (on Debian or Ubuntu: apt-get install chromium), or set %s to its path; the page's HTML (--html, \"html\": true) needs no browser",
		strings.Join(execNames, ", "), ExecEnv, ExecEnv)
}

// Config sets up a Browser. The zero value finds Chromium and uses the
// default limits.
type Config struct {
	// Exec is the Chromium to run ("": Find).
	Exec string
	// StartLimit bounds the browser's start (0: DefaultStartLimit).
	StartLimit time.Duration
	// PageLimit bounds one picture, from the tab's opening to its PNG
	// (0: DefaultPageLimit).
	PageLimit time.Duration
}

// Browser is one running headless Chromium. Pictures may be taken from
// several goroutines at once, each in a tab of its own. Close stops the
// browser and reaps every process it started.
type Browser struct {
	cfg     Config
	ctx     context.Context // the browser's chromedp context
	cancel  context.CancelFunc
	cancelA context.CancelFunc // the allocator's

	mu     sync.Mutex
	closed bool
	idle   []*tab // tabs a finished picture left, ready for the next
}

// maxIdleTabs bounds the tabs kept open between pictures.
const maxIdleTabs = 4

// Start starts a browser. It answers T4010 where no Chromium is found or it
// fails to start, and T4004 where it does not start within the limit.
func Start(ctx context.Context, cfg Config) (*Browser, error) {
	if cfg.Exec == "" {
		p, err := Find()
		if err != nil {
			return nil, err
		}
		cfg.Exec = p
	}
	if cfg.StartLimit <= 0 {
		cfg.StartLimit = DefaultStartLimit
	}
	if cfg.PageLimit <= 0 {
		cfg.PageLimit = DefaultPageLimit
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(cfg.Exec),
		chromedp.DisableGPU,
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("force-device-scale-factor", "1"),
		chromedp.Flag("font-render-hinting", "none"),
		// JavaScript off in every page, besides the tab's own switch.
		chromedp.Flag("blink-settings", "scriptEnabled=false"),
		// No name resolves and no proxy is bypassed for the loopback: a
		// request that passed the tab's interception would still go nowhere.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND"),
		chromedp.Flag("proxy-server", "http://0.0.0.0:9"),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		chromedp.Flag("deny-permission-prompts", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
		// No crash handler and no zygote: both are forked off the browser
		// and left to the system to reap when it ends.
		chromedp.Flag("disable-crash-reporter", true),
		chromedp.Flag("no-zygote", true),
	)
	// The browser lives as long as the Browser, not as the caller's ctx.
	actx, cancelA := chromedp.NewExecAllocator(context.WithoutCancel(ctx), opts...)
	bctx, cancel := chromedp.NewContext(actx)
	b := &Browser{cfg: cfg, ctx: bctx, cancel: cancel, cancelA: cancelA}

	started := make(chan error, 1)
	go func() { started <- chromedp.Do(bctx) }()
	timer := time.NewTimer(cfg.StartLimit)
	defer timer.Stop()
	select {
	case err := <-started:
		if err != nil {
			b.kill()
			return nil, diag.Errorf(diag.T4010, "the browser %s did not start: %v", cfg.Exec, firstLine(err))
		}
		return b, nil
	case <-timer.C:
		b.kill()
		<-started
		return nil, diag.Errorf(diag.T4004, "the browser %s did not start within %s", cfg.Exec, cfg.StartLimit)
	case <-ctx.Done():
		b.kill()
		<-started
		return nil, diag.Errorf(diag.T4004, "the browser's start was stopped: %v", ctx.Err())
	}
}

// kill stops the browser: its tabs and the process, killed through its
// allocator's context, which waits for it and for what it started.
func (b *Browser) kill() {
	b.mu.Lock()
	b.closed = true
	idle := b.idle
	b.idle = nil
	b.mu.Unlock()
	for _, t := range idle {
		t.close()
	}
	b.cancel()
	b.cancelA()
}

// firstLine is the first line of an error, for a message.
func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// Close stops the browser and waits for its processes to end. It may be
// called more than once. The browser is killed, not asked to close: its
// profile is a temporary folder that nothing keeps, and the kill (with
// chromedp's sweep of the processes that name that folder) ends every
// process it started at once.
func (b *Browser) Close() error {
	b.kill()
	return nil
}

// Size is a viewport in CSS pixels.
type Size struct{ Width, Height int }

// String writes a size as WIDTHxHEIGHT.
func (s Size) String() string { return fmt.Sprintf("%dx%d", s.Width, s.Height) }

// The named sizes (docs/pages/shot.md).
var namedSizes = map[string]Size{
	"phone":   {390, 844},
	"tablet":  {820, 1180},
	"desktop": {1280, 800},
}

// DefaultSize is the size where none is given.
const DefaultSize = "desktop"

// sizePattern is WIDTHxHEIGHT.
var sizePattern = regexp.MustCompile(`^([0-9]{2,5})x([0-9]{2,5})$`)

// ParseSize reads a size: phone, tablet, desktop ("" is desktop) or
// WIDTHxHEIGHT, each from 100 to 4000 pixels; anything else is T9102.
func ParseSize(s string) (Size, error) {
	if s == "" {
		s = DefaultSize
	}
	if sz, ok := namedSizes[s]; ok {
		return sz, nil
	}
	m := sizePattern.FindStringSubmatch(s)
	if m == nil {
		return Size{}, diag.Errorf(diag.T9102, "size %q: want phone (390x844), tablet (820x1180), desktop (1280x800) or WIDTHxHEIGHT such as 1024x768", s).With("field", "size")
	}
	w, _ := strconv.Atoi(m[1])
	h, _ := strconv.Atoi(m[2])
	if w < 100 || w > 4000 || h < 100 || h > 4000 {
		return Size{}, diag.Errorf(diag.T9102, "size %s: width and height are from 100 to 4000 pixels", s).With("field", "size")
	}
	return Size{w, h}, nil
}

// Picture is a page's picture.
type Picture struct {
	// PNG is the picture: size.Width wide, as tall as the page (at least
	// size.Height, at most MaxHeight).
	PNG []byte
	// Blocked lists the requests the page made and the browser failed.
	Blocked []string
}

// Shoot takes the picture of an HTML page in a tab of its own, size wide,
// as tall as the page. The tab serves the page at pageURL and fails every
// other request; JavaScript is off. Past the page limit it answers T4004.
// A tab that took a picture well is kept for a later one (a new page is a
// new document: nothing of the last one stays); any other is closed.
func (b *Browser) Shoot(ctx context.Context, html []byte, size Size) (*Picture, error) {
	t, err := b.take()
	if err != nil {
		return nil, err
	}
	// A tab's context must not carry a deadline (at its first use it would
	// close the tab when it passed); the limit closes the tab from outside.
	expired := make(chan struct{})
	limit := time.AfterFunc(b.cfg.PageLimit, func() { close(expired); t.close() })
	stop := context.AfterFunc(ctx, t.close)
	pic, err := t.shoot(html, size)
	stopped := !stop()
	limit.Stop()
	select {
	case <-expired:
		t.close()
		return nil, diag.Errorf(diag.T4004, "the page's picture took longer than %s", b.cfg.PageLimit)
	default:
	}
	if err != nil || stopped {
		t.close()
		if ctx.Err() != nil {
			return nil, diag.Errorf(diag.T4004, "the picture was stopped: %v", ctx.Err())
		}
		return nil, fmt.Errorf("shot: %w", err)
	}
	b.give(t)
	return pic, nil
}

// take answers an idle tab, or opens a new one.
func (b *Browser) take() (*tab, error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, fmt.Errorf("shot: the browser is closed")
	}
	if n := len(b.idle); n > 0 {
		t := b.idle[n-1]
		b.idle = b.idle[:n-1]
		b.mu.Unlock()
		return t, nil
	}
	b.mu.Unlock()
	return b.open()
}

// give keeps a tab for the next picture, or closes it where enough are kept.
func (b *Browser) give(t *tab) {
	b.mu.Lock()
	if !b.closed && len(b.idle) < maxIdleTabs {
		b.idle = append(b.idle, t)
		b.mu.Unlock()
		return
	}
	b.mu.Unlock()
	t.close()
}

// tab is one tab of the browser, with the interception that serves its
// page and fails every other request.
type tab struct {
	ctx   context.Context
	close context.CancelFunc

	mu      sync.Mutex
	html    []byte   // the page the next navigation is served
	served  bool     // whether it was
	blocked []string // the requests failed since
}

// open opens a tab: every request paused and answered by the tab's
// interception, JavaScript off.
func (b *Browser) open() (*tab, error) {
	ctx, cancel := chromedp.NewContext(b.ctx)
	t := &tab{ctx: ctx, close: cancel}
	events := chromedp.Events(ctx, fetch.RequestPaused)
	go t.intercept(events)
	err := chromedp.Do(ctx,
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*"}}})
			return err
		}),
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}),
	)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("shot: open a tab: %w", err)
	}
	return t, nil
}

// intercept answers the tab's paused requests: the page's own document
// with the page, once per picture; anything else failed.
func (t *tab) intercept(events iter.Seq2[fetch.EventRequestPaused, error]) {
	for ev, err := range events {
		if err != nil {
			return
		}
		t.mu.Lock()
		serve := !t.served && ev.Request != nil && ev.Request.URL == pageURL && ev.ResourceType == network.ResourceTypeDocument
		html := t.html
		if serve {
			t.served = true
		} else if ev.Request != nil {
			t.blocked = append(t.blocked, ev.Request.URL)
		}
		t.mu.Unlock()
		if serve {
			_, _ = chromedp.Call(t.ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{
				RequestID:    ev.RequestID,
				ResponseCode: 200,
				ResponseHeaders: []*fetch.HeaderEntry{
					{Name: "Content-Type", Value: "text/html; charset=utf-8"},
					{Name: "Cache-Control", Value: "no-store"},
				},
				Body: html,
			})
			continue
		}
		_, _ = chromedp.Call(t.ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
	}
}

// shoot loads html in the tab and takes its picture.
func (t *tab) shoot(html []byte, size Size) (*Picture, error) {
	t.mu.Lock()
	t.html, t.served, t.blocked = html, false, nil
	t.mu.Unlock()
	var png []byte
	err := chromedp.Do(t.ctx,
		chromedp.EmulateViewport(int64(size.Width), int64(size.Height)),
		chromedp.Navigate(pageURL),
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			m, err := chromedp.Call(ctx, page.GetLayoutMetrics, cdp.Empty{})
			if err != nil {
				return err
			}
			height := size.Height
			if m.CSSContentSize != nil {
				height = max(height, int(math.Ceil(m.CSSContentSize.Height)))
			}
			height = min(height, MaxHeight)
			if _, err := chromedp.Run(ctx, chromedp.EmulateViewport(int64(size.Width), int64(height))); err != nil {
				return err
			}
			png, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
			return err
		}),
	)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.html = nil
	if err != nil {
		return nil, err
	}
	if !t.served {
		return nil, fmt.Errorf("the page was never asked for")
	}
	return &Picture{PNG: png, Blocked: slices.Clone(t.blocked)}, nil
}
