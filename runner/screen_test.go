package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/golden"
)

// TestScreens shows the screens of shop and of the screens test project by
// their routes, and compares each answer (the element tree, or the error)
// with the golden file.
func TestScreens(t *testing.T) {
	cases := []struct {
		project, label string
		req            ScreenRequest
	}{
		{"shop", "dashboard as staff", ScreenRequest{Route: "/admin", As: "u2"}},
		{"shop", "a category", ScreenRequest{Route: "/categories/kitchen"}},
		{"shop", "a product", ScreenRequest{Route: "/products/p1", As: "chen@example.com"}},
		{"shop", "an order as its buyer", ScreenRequest{Route: "/orders/o2", As: "u3"}},
		{"shop", "an order nobody may read", ScreenRequest{Route: "/orders/o2"}},
		{"shop", "a route with a trailing slash and a query", ScreenRequest{Route: "/products/p2/?tab=reviews"}},
		{"shop", "no screen has the route", ScreenRequest{Route: "/order/o1"}},
		{"shop", "not a route", ScreenRequest{Route: "orders"}},
		{"shop", "as nobody known", ScreenRequest{Route: "/admin", As: "eve@example.com"}},
		{"shop", "as the system, not let", ScreenRequest{Route: "/admin", As: "system"}},
		{"screens", "every component", ScreenRequest{Route: "/kit", As: "u1"}},
		{"screens", "text that looks like HTML; a private value in a text", ScreenRequest{Route: "/notes/n2"}},
		{"screens", "load throws", ScreenRequest{Route: "/broken"}},
		{"screens", "view returns nothing", ScreenRequest{Route: "/blank"}},
	}
	var out bytes.Buffer
	runners := map[string]*Runner{}
	for _, c := range cases {
		r := runners[c.project]
		if r == nil {
			r = newRunner(t, project(t, c.project), Config{})
			runners[c.project] = r
		}
		c.req.Now = fixedNow
		sc, err := r.Screen(context.Background(), index(t, r.root), c.req)
		var ans any = sc
		if err != nil {
			ans = map[string]any{"error": err}
		} else {
			sc.MS = 0
		}
		fmt.Fprintf(&out, "## %s: %s %s as %q\n", c.label, c.project, c.req.Route, c.req.As)
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(ans); err != nil {
			t.Fatal(err)
		}
		out.WriteString("\n")
	}
	golden.Check(t, "testdata/screens.golden", out.Bytes())
}

// TestScreenPrivate: no value of a private column reaches the tree, however
// the view carries it (a Table column, a renamed key, a text), and the
// user's own private values neither.
func TestScreenPrivate(t *testing.T) {
	r := newRunner(t, project(t, "screens"), Config{})
	ix := index(t, r.root)
	for _, route := range []string{"/kit", "/notes/n1", "/notes/n2", "/notes/n3"} {
		sc, err := r.Screen(context.Background(), ix, ScreenRequest{Route: route, As: "u1"})
		if err != nil {
			t.Fatalf("%s: %v", route, err)
		}
		b, _ := json.Marshal(sc)
		for _, secret := range []string{"12 Analytical Row", "Bell Labs", "2C-517", "ada-keeps-this-quiet", "homeAddress"} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s: the tree holds the private %q:\n%s", route, secret, b)
			}
		}
		// The view gets the note without its private column: nothing
		// follows "Sent from".
		if route != "/kit" && !strings.Contains(string(b), `"Sent from "]`) {
			t.Errorf("%s: the view held the private address:\n%s", route, b)
		}
	}
}

// TestScreenPrivateTransformed: a screen's load and view never hold a
// private value (the rows of get, all, where and update's answer, and the
// user, come without their private columns), so no way of writing one out
// (reversed, spaced, as char codes) reaches the tree; the hiding of texts
// alone saw a value only where it stood as it is.
func TestScreenPrivateTransformed(t *testing.T) {
	root := project(t, "screens")
	src, err := os.ReadFile("testdata/leak.tsx")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "screens", "leak.tsx"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, root, Config{})
	ix := index(t, root)
	rev := func(s string) string {
		r := []rune(s)
		slices.Reverse(r)
		return string(r)
	}
	spaced := func(s string) string { return strings.Join(strings.Split(s, ""), " ") }
	codes := func(s string) string {
		var out []string
		for _, c := range s {
			out = append(out, strconv.Itoa(int(c)))
		}
		return strings.Join(out, ",")
	}
	for _, id := range []string{"n1", "n2", "n3"} {
		sc, err := r.Screen(context.Background(), ix, ScreenRequest{Route: "/leak/" + id, As: "u1"})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		b, _ := json.Marshal(sc.Tree)
		tree := strings.ReplaceAll(string(b), `\u0026`, "&")
		for _, secret := range []string{"12 Analytical Row, London", "7 Bell Labs Way, Murray Hill", "Room 2C-517", "ada-keeps-this-quiet"} {
			for how, form := range map[string]string{"as it is": secret, "reversed": rev(secret), "spaced": spaced(secret), "as char codes": codes(secret)} {
				if strings.Contains(tree, form) {
					t.Errorf("/leak/%s: the tree holds %q %s:\n%s", id, secret, how, tree)
				}
			}
		}
		if strings.Contains(tree, "homeAddress") {
			t.Errorf("/leak/%s: the view saw the private column's name:\n%s", id, tree)
		}
	}
}

// TestScreenLimits: a view that never ends is stopped at the time limit (T4004).
func TestScreenLimits(t *testing.T) {
	r := newRunner(t, project(t, "screens"), Config{TimeLimit: 200 * time.Millisecond})
	start := time.Now()
	_, err := r.Screen(context.Background(), index(t, r.root), ScreenRequest{Route: "/spin"})
	toolError(t, err, "T4004")
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("stopped after %s, want about 200ms", d)
	}
}

// TestRouteMatch: a literal segment beats a parameter; parameters are
// unescaped; the nearest patterns come first.
func TestRouteMatch(t *testing.T) {
	screens := []screenDef{
		{name: "byId", pattern: "/orders/:id", segments: routeSegments("/orders/:id")},
		{name: "fresh", pattern: "/orders/new", segments: routeSegments("/orders/new")},
		{name: "home", pattern: "/", segments: routeSegments("/")},
		{name: "item", pattern: "/orders/:id/items/:n", segments: routeSegments("/orders/:id/items/:n")},
	}
	cases := []struct{ route, want, params string }{
		{"/orders/new", "fresh", "{}"},
		{"/orders/o%201", "byId", `{"id":"o 1"}`},
		{"/", "home", "{}"},
		{"/orders/o1/items/2", "item", `{"id":"o1","n":"2"}`},
		{"/orders", "", ""},
	}
	for _, c := range cases {
		sc, params, err := findScreen(screens, c.route)
		if c.want == "" {
			if code(err) != "T9103" {
				t.Errorf("%s: err = %v, want T9103", c.route, err)
			}
			continue
		}
		b, _ := json.Marshal(params)
		if err != nil || sc.name != c.want || string(b) != c.params {
			t.Errorf("%s: %s %s %v, want %s %s", c.route, sc.name, b, err, c.want, c.params)
		}
	}
	if got, likely := nearestPatterns(screens, "/order/o1", 2); strings.Join(got, " ") != "/orders/:id /orders/new" || !likely {
		t.Errorf("nearest = %v, likely %v", got, likely)
	}
	if got, likely := nearestPatterns(screens, "/zzzzzzzzzz", 2); len(got) != 2 || likely {
		t.Errorf("nearest of a far route = %v, likely %v", got, likely)
	}
}
