package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/spelling"
	"github.com/tent-tools/tent-tools/runner/runlog"
	"github.com/tent-tools/tent-tools/runner/testdb"
)

// ScreenRequest is one screen to show: the screen whose path pattern
// matches Route, loaded and viewed as a user (docs/pages/format.md §2.4).
type ScreenRequest struct {
	// Route is the route to show, such as "/orders/paid".
	Route string
	// As is who looks at it, as for Request.As ("" for nobody).
	As string
	// AllowSystem is set where the policy's also names runAsSystem.
	AllowSystem bool
	// Trusted is set where the policy's trust names run: a load that sends
	// data out is let. Otherwise it is refused (T3103): a picture asks nobody.
	Trusted bool
	// Now is what ctx.now() answers (zero: the time the load starts).
	Now time.Time
}

// Screen is what a screen showed: which screen the route matched, with
// its parameters, and the element tree its view returned, with every
// private value hidden.
type Screen struct {
	// Name is the screen's definition; File the file that defines it.
	Name string `json:"name"`
	File string `json:"file"`
	// Pattern is the screen's path pattern; Title its title ("" where none).
	Pattern string `json:"pattern"`
	Title   string `json:"title"`
	// Params are the values of the pattern's :name segments.
	Params map[string]string `json:"params"`
	// Tree is the view's element tree as JSON values: an element is an
	// object {type, props, children}, a text is a string or a number, and
	// an array is a list of those.
	Tree any `json:"tree"`
	// Logged is what load and view logged.
	Logged []string `json:"logged"`
	MS     float64  `json:"ms"`
}

// screenDef is a screen of the project, as routing needs it.
type screenDef struct {
	name, file, pattern, title string
	segments                   []string
}

// screensOf lists the screens of ix, first by path where two share a name.
func screensOf(ix *definitions.Index) []screenDef {
	var out []screenDef
	seen := map[string]bool{}
	for _, d := range ix.Definitions() {
		if d.Screen == nil || seen[d.Name] {
			continue
		}
		seen[d.Name] = true
		out = append(out, screenDef{name: d.Name, file: d.Path, pattern: d.Screen.Path, title: d.Screen.Title, segments: routeSegments(d.Screen.Path)})
	}
	return out
}

// routeSegments splits a route or a pattern at its slashes, without the
// empty segments of a leading or trailing slash.
func routeSegments(p string) []string {
	var out []string
	for s := range strings.SplitSeq(p, "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// match answers the parameters of route under the screen's pattern, and
// whether it matches.
func (sc screenDef) match(route []string) (map[string]string, bool) {
	if len(route) != len(sc.segments) {
		return nil, false
	}
	params := map[string]string{}
	for i, seg := range sc.segments {
		if name, ok := strings.CutPrefix(seg, ":"); ok && name != "" {
			v, err := url.PathUnescape(route[i])
			if err != nil {
				return nil, false
			}
			params[name] = v
			continue
		}
		if seg != route[i] {
			return nil, false
		}
	}
	return params, true
}

// literals counts the segments of a pattern that are no parameter: where two
// patterns match, the more literal one wins (/orders/new over /orders/:id).
func (sc screenDef) literals() int {
	n := 0
	for _, s := range sc.segments {
		if !strings.HasPrefix(s, ":") {
			n++
		}
	}
	return n
}

// findScreen answers the screen the route matches and its parameters;
// none is T9103 naming the nearest paths.
func findScreen(screens []screenDef, route string) (screenDef, map[string]string, error) {
	if !strings.HasPrefix(route, "/") {
		return screenDef{}, nil, diag.Errorf(diag.T9102, "path %q: a route starts with / (such as /orders/paid)", route).With("field", "path")
	}
	if i := strings.IndexAny(route, "?#"); i >= 0 {
		route = route[:i]
	}
	segs := routeSegments(route)
	best, bestParams := -1, map[string]string(nil)
	for i, sc := range screens {
		params, ok := sc.match(segs)
		if ok && (best < 0 || sc.literals() > screens[best].literals()) {
			best, bestParams = i, params
		}
	}
	if best >= 0 {
		return screens[best], bestParams, nil
	}
	if len(screens) == 0 {
		return screenDef{}, nil, diag.Errorf(diag.T9103, "no screen has the path %s: the project has no screens", route)
	}
	nearest, likely := nearestPatterns(screens, route, 3)
	if likely {
		return screenDef{}, nil, diag.Errorf(diag.T9103, "no screen has the path %s; did you mean %s? (the nearest: %s)", route, nearest[0], strings.Join(nearest, ", ")).With("nearest", nearest)
	}
	return screenDef{}, nil, diag.Errorf(diag.T9103, "no screen has the path %s; the nearest: %s", route, strings.Join(nearest, ", ")).With("nearest", nearest)
}

// nearestPatterns answers up to n screen patterns nearest to route by edit
// distance, a pattern's parameters standing for any segment, and whether
// the first is near enough to be a likely typo (spelling.Nearest's rule).
func nearestPatterns(screens []screenDef, route string, n int) ([]string, bool) {
	segs := routeSegments(route)
	type scored struct {
		pattern string
		d       int
		filled  string // the pattern with the route's segments in its parameters
	}
	var all []scored
	for _, sc := range screens {
		// Put the route's own segment in each parameter's place, so
		// /order/o1 is one letter from /orders/:id, not many.
		filled := slices.Clone(sc.segments)
		for i, s := range filled {
			if strings.HasPrefix(s, ":") && i < len(segs) {
				filled[i] = segs[i]
			}
		}
		all = append(all, scored{sc.pattern, spelling.Distance("/"+strings.Join(filled, "/"), "/"+strings.Join(segs, "/")), "/" + strings.Join(filled, "/")})
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].d != all[j].d {
			return all[i].d < all[j].d
		}
		return all[i].pattern < all[j].pattern
	})
	out := []string{}
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].pattern)
	}
	likely := len(all) > 0 && all[0].d > 0 && spelling.Nearest("/"+strings.Join(segs, "/"), []string{all[0].filled}) != ""
	return out, likely
}

// Screen shows a screen: finds the screen whose path pattern matches the
// route, runs its load(ctx, params) and its view on the test database as
// req.As under the limits and may rules of a run, and answers the element
// tree, every private value hidden (privateTree). It answers the tool errors
// of Run (T4003 at the app's file and line, T4004, T4005, T3104, ...),
// T9103 for a route that no screen matches, and T4011 for a view that
// returns nothing a page can show. The load is kept in the run log under
// the screen's name, its parameters as its input.
func (r *Runner) Screen(ctx context.Context, ix *definitions.Index, req ScreenRequest) (*Screen, error) {
	a := r.app(ix)
	sc, params, err := findScreen(screensOf(ix), req.Route)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	var out *Screen
	if pool := r.workers(); pool != nil {
		out, err = r.screenInWorker(ctx, pool, a, indexSource{ix: ix, root: r.root}, sc, params, req)
	} else {
		out, err = r.showScreen(ctx, a, indexSource{ix: ix, root: r.root}, sc, params, req, start)
	}
	ms := math.Round(float64(time.Since(start).Microseconds())/10) / 100
	input, _ := json.Marshal(params)
	entry := runlog.Entry{Time: start, Name: sc.name, As: asLabel(req.As), Input: redactJSON(a, newSecretSet(a.private), input), MS: ms}
	if out != nil {
		out.MS = ms
		entry.Result = json.RawMessage(`{"screen":` + mustJSON(sc.pattern) + `}`)
	}
	var te *diag.ToolError
	if err != nil && !errors.As(err, &te) {
		te = diag.Errorf(diag.T4003, "%v", err)
	}
	if te != nil {
		entry.Error = redactError(a, newSecretSet(a.private), te)
	}
	if l, lerr := r.runLog(ctx); lerr == nil {
		// As for runs: the log serves later questions, and failing to keep
		// it must not turn a shot that happened into one that did not.
		_ = l.Add(context.WithoutCancel(ctx), entry)
	}
	return out, err
}

// mustJSON encodes a string as JSON.
func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// showScreen runs load and view in a fresh session over one transaction,
// committed where they end well (load may write, as a run may).
func (r *Runner) showScreen(ctx context.Context, a *app, src Source, sc screenDef, params map[string]string, req ScreenRequest, start time.Time) (*Screen, error) {
	system := req.As == asSystem
	if system && !req.AllowSystem {
		return nil, diag.Errorf(diag.T3102, "showing a screen as the system needs the policy's also to name runAsSystem")
	}
	db, err := r.database(ctx, a)
	if err != nil {
		return nil, err
	}
	tx, err := db.Begin(ctx, a.model)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	secrets := newSecretSet(a.private)
	s := &session{ctx: ctx, app: a, src: src, cache: r.cache, tx: tx, http: r.cfg.HTTP, remote: r.remote, system: system, sending: req.Trusted, screen: true}
	s.ask = func(kind string) (bool, error) { return false, nil }
	s.onRows = func(table string, rows []testdb.Row) { secrets.addRows(a, table, rows) }
	if req.As != "" && !system {
		if s.user, err = findUser(tx, a, req.As); err != nil {
			return nil, err
		}
		secrets.addRows(a, a.users, []testdb.Row{s.user})
	}
	now := req.Now
	if now.IsZero() {
		now = start
	}
	text, err := r.callScreen(s, sc, params, now)
	if err != nil {
		var te *diag.ToolError
		if errors.As(err, &te) && len(s.logged) > 0 {
			te.With("logged", s.logged)
		}
		return nil, err
	}
	tree, err := decodeJSON([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("screen %s: the view's tree: %w", sc.name, err)
	}
	if !renderable(tree) {
		return nil, diag.Errorf(diag.T4011, "the view of %s (%s) returned %s, not an element of 'tent/ui' such as <Page>", sc.name, sc.file, describeValue(tree)).With("at", sc.file)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("screen %s: %w", sc.name, err)
	}
	logged := s.logged
	if s.cut > 0 {
		logged = append(logged, fmt.Sprintf("(%d more lines cut)", s.cut))
	}
	if logged == nil {
		logged = []string{}
	}
	return &Screen{
		Name: sc.name, File: sc.file, Pattern: sc.pattern, Title: sc.title, Params: params,
		Tree: secrets.hide(tree), Logged: secrets.hideLines(logged),
	}, nil
}

// callScreen runs the screen's load and view in a fresh runtime under the
// run's limits, and answers the tree as JSON text.
func (r *Runner) callScreen(s *session, sc screenDef, params map[string]string, now time.Time) (text string, err error) {
	defer func() {
		if x := recover(); x != nil {
			text = ""
			if lp, ok := x.(limitPanic); ok {
				err = diag.Errorf(lp.hit.code, "%s", lp.hit.message)
				return
			}
			err = fmt.Errorf("screen %s: the runner failed: %v", sc.name, x)
		}
	}()
	if _, err := s.start(r.guard, r.prelude, now, runSeed(sc.name, nil, now)); err != nil {
		return "", err
	}
	if s.showScreen == nil {
		return "", fmt.Errorf("screen %s: the prelude has no screen entry", sc.name)
	}
	paramsText, err := json.Marshal(params)
	if err != nil {
		return "", fmt.Errorf("screen %s: %w", sc.name, err)
	}
	s.watch = watch(s.ctx, s.vm, r.cfg.TimeLimit, r.cfg.MemoryLimit)
	defer s.watch.stop()
	v, err := s.showScreen(goja.Undefined(), s.vm.ToValue(sc.file), s.vm.ToValue(sc.name), s.vm.ToValue(string(paramsText)))
	if err != nil {
		return "", s.thrown(err, nil)
	}
	p, ok := v.Export().(*goja.Promise)
	if !ok {
		return "", fmt.Errorf("screen %s: the prelude answered no promise", sc.name)
	}
	switch p.State() {
	case goja.PromiseStateFulfilled:
		return p.Result().String(), nil
	case goja.PromiseStateRejected:
		return "", s.thrown(nil, p.Result())
	}
	return "", diag.Errorf(diag.T4003, "the load or view of %s answered a promise that never settles (a screen has no timers nor events to wait for)", sc.name)
}

// renderable says whether a view's answer holds something a page can show:
// an element, or a list holding one.
func renderable(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		t, ok := x["type"].(string)
		return ok && t != ""
	case []any:
		for _, e := range x {
			if renderable(e) {
				return true
			}
		}
	}
	return false
}

// describeValue names what a view returned, for T4011.
func describeValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "nothing (null or undefined)"
	case []any:
		if len(x) == 0 {
			return "an empty list"
		}
		return "a list with no element in it"
	case map[string]any:
		return "an object that is no element (no type)"
	case string:
		return "a bare text"
	}
	return fmt.Sprintf("a %T", v)
}

// screenPrimitives are the host side of showing a screen: screen(file,
// name) loads the file (its top level runs as app code, under the limits)
// and answers the screen's definition object.
func (s *session) screenPrimitives(set func(string, func(goja.FunctionCall) goja.Value)) {
	set("screen", func(call goja.FunctionCall) goja.Value {
		file, name := str(call, 0), str(call, 1)
		v := s.definition(file, name)
		obj, ok := v.(*goja.Object)
		if !ok || obj.Get("__tent") == nil || obj.Get("__tent").String() != "screen" {
			s.throw(diag.T4011, "%s in %s is not made by screen() of 'tent/ui'", name, file)
		}
		return v
	})
}
