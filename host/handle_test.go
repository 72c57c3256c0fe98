package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/tools"
)

const shop = "../testdata/projects/shop"

// open opens a handle over a new folder; staff may act on any workspace.
func open(t testing.TB, cfg Config) *Handle {
	t.Helper()
	if cfg.May == nil {
		cfg.May = func(caller string, _ Info) bool { return caller == "staff" }
	}
	h, err := Open(t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func wantCode(t testing.TB, err error, code string) {
	t.Helper()
	var te *diag.ToolError
	if !errors.As(err, &te) || te.Code != code {
		t.Fatalf("got %v; want %s", err, code)
	}
}

func raw(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func TestCreate(t *testing.T) {
	h := open(t, Config{})
	a, err := h.Create(context.Background(), "ann", shop)
	if err != nil {
		t.Fatal(err)
	}
	b, err := h.Create(context.Background(), "ann", "")
	if err != nil {
		t.Fatal(err)
	}
	if !validID(a.ID) || !validID(b.ID) || a.ID == b.ID {
		t.Errorf("ids %q and %q", a.ID, b.ID)
	}
	if _, err := os.Stat(filepath.Join(h.dir, a.ID, "tables", "orders.ts")); err != nil {
		t.Errorf("the template was not copied: %v", err)
	}
	ans, err := h.Tool(context.Background(), b.ID, "list", nil, Call{Caller: "ann"})
	if err != nil || len(ans.Data.(tools.ListAnswer).Entries) != 0 {
		t.Errorf("a new empty workspace lists %+v, %v", ans.Data, err)
	}
	if _, err := h.Create(context.Background(), "", ""); err == nil {
		t.Error("a workspace without an owner was made")
	}
	// A handle opened again over the folder knows the owners.
	h2, err := Open(h.dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	if _, err := h2.Tool(context.Background(), a.ID, "read", raw(map[string]string{"path": "project.ts"}), Call{Caller: "ann"}); err != nil {
		t.Error(err)
	}
}

// TestNotLetIn holds Tool, Turn and Undo to the owner and whom May lets
// in: anyone else gets T3101, and nothing of the workspace is read or
// written (its history is never opened).
func TestNotLetIn(t *testing.T) {
	h := open(t, Config{})
	ctx := context.Background()
	ws, err := h.Create(ctx, "ann", shop)
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(h.dir, ws.ID, ".tent", "history.db")
	edit := raw(map[string]string{"path": "project.ts", "find": "name: 'shop'", "with": "name: 'x'"})
	for _, caller := range []string{"bob", "", "ANN", "ann "} {
		_, err := h.Tool(ctx, ws.ID, "edit", edit, Call{Caller: caller})
		wantCode(t, err, diag.T3101)
		_, err = h.Tool(ctx, ws.ID, "read", raw(map[string]string{"path": "project.ts"}), Call{Caller: caller})
		wantCode(t, err, diag.T3101)
		called := false
		err = h.Turn(ctx, ws.ID, Call{Caller: caller}, func(*Turn) error { called = true; return nil })
		wantCode(t, err, diag.T3101)
		if called {
			t.Errorf("%q: the turn ran", caller)
		}
		_, err = h.Undo(ctx, ws.ID, Call{Caller: caller}, 0)
		wantCode(t, err, diag.T3101)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("a refused caller made the history: %v", err)
	}
	// Ids that are no workspace, or no id at all, answer the same.
	for _, id := range []string{"", "..", "../x", strings.Repeat("a", idLen), ws.ID + "/../" + ws.ID, strings.ToUpper(ws.ID)} {
		_, err := h.Tool(ctx, id, "read", raw(map[string]string{"path": "project.ts"}), Call{Caller: "ann"})
		wantCode(t, err, diag.T3101)
	}
	// The owner and whom May lets in.
	for _, caller := range []string{"ann", "staff"} {
		if _, err := h.Tool(ctx, ws.ID, "read", raw(map[string]string{"path": "project.ts"}), Call{Caller: caller}); err != nil {
			t.Errorf("%s: %v", caller, err)
		}
	}
}

// TestNoInputNamesAnotherWorkspace tries to reach one workspace through
// the tools of another.
func TestNoInputNamesAnotherWorkspace(t *testing.T) {
	h := open(t, Config{})
	ctx := context.Background()
	mine, _ := h.Create(ctx, "ann", shop)
	theirs, _ := h.Create(ctx, "bob", shop)
	for _, p := range []string{"../" + theirs.ID + "/project.ts", filepath.Join(h.dir, theirs.ID, "project.ts")} {
		_, err := h.Tool(ctx, mine.ID, "read", raw(map[string]string{"path": p}), Call{Caller: "ann"})
		wantCode(t, err, diag.T9105)
		_, err = h.Tool(ctx, mine.ID, "write", raw(map[string]string{"path": p, "text": "x"}), Call{Caller: "ann"})
		wantCode(t, err, diag.T9105)
	}
	// A path that spells the other's id is a folder of this workspace.
	if _, err := h.Tool(ctx, mine.ID, "write", raw(map[string]string{"path": theirs.ID + "/project.ts", "text": "x"}), Call{Caller: "ann"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(h.dir, mine.ID, theirs.ID, "project.ts")); err != nil {
		t.Error(err)
	}
	got, _ := os.ReadFile(filepath.Join(h.dir, theirs.ID, "project.ts"))
	want, _ := os.ReadFile(filepath.Join(shop, "project.ts"))
	if string(got) != string(want) {
		t.Error("another workspace was written")
	}
}

// TestTurnsAndPolicies runs two agents' turns: points carry the turn, and
// each agent is held to its own policy.
func TestTurnsAndPolicies(t *testing.T) {
	h := open(t, Config{Policies: map[string]*tools.Policy{
		"careful": {Deny: []string{"tables/**"}},
		"builder": {Allow: []string{"**"}},
	}})
	ctx := context.Background()
	ws, _ := h.Create(ctx, "ann", shop)
	var turn int
	err := h.Turn(ctx, ws.ID, Call{Caller: "ann", Agent: "builder"}, func(t *Turn) error {
		turn = t.Number()
		if _, err := t.Tool(ctx, "edit", raw(map[string]string{"path": "tables/orders.ts", "find": "total: money()", "with": "total: int()"})); err != nil {
			return err
		}
		_, err := t.Tool(ctx, "rename", raw(map[string]string{"name": "orders.total", "to": "amount"}))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = h.Turn(ctx, ws.ID, Call{Caller: "staff", Agent: "careful"}, func(t *Turn) error {
		_, err := t.Tool(ctx, "edit", raw(map[string]string{"path": "tables/orders.ts", "find": "amount", "with": "sum"}))
		return err
	})
	wantCode(t, err, diag.T9105)
	ans, err := h.Tool(ctx, ws.ID, "history", nil, Call{Caller: "ann"})
	if err != nil {
		t.Fatal(err)
	}
	points := ans.Data.(tools.HistoryAnswer).Points
	if len(points) != 2 {
		t.Fatalf("points: %+v", points)
	}
	for _, p := range points {
		if p.Turn == nil || *p.Turn != turn || p.Who != "ann" || p.Agent != "builder" {
			t.Errorf("point %d: turn %v who %s agent %s; want turn %d by ann through builder", p.Point, p.Turn, p.Who, p.Agent, turn)
		}
	}
	// The turn's changes are undone one by one, by whoever is let in.
	if _, err := h.Undo(ctx, ws.ID, Call{Caller: "staff"}, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Undo(ctx, ws.ID, Call{Caller: "ann"}, 0); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(h.dir, ws.ID, "tables", "orders.ts"))
	want, _ := os.ReadFile(filepath.Join(shop, "tables", "orders.ts"))
	if string(got) != string(want) {
		t.Errorf("after two undos:\n%s", got)
	}
	// The policy may change between calls.
	h.SetPolicy("builder", &tools.Policy{Deny: []string{"*:table"}})
	_, err = h.Tool(ctx, ws.ID, "edit", raw(map[string]string{"path": "tables/orders.ts", "find": "total: money()", "with": "total: int()"}), Call{Caller: "ann", Agent: "builder"})
	wantCode(t, err, diag.T9105)
}

// TestConcurrentEdits edits 50 distinct lines of one file from 50
// goroutines at once, through Tool: every edit lands, each as its point.
func TestConcurrentEdits(t *testing.T) {
	everything := &tools.Policy{Allow: []string{"**"}}
	h := open(t, Config{Policies: map[string]*tools.Policy{"agent0": everything, "agent1": everything, "agent2": everything}})
	ctx := context.Background()
	ws, _ := h.Create(ctx, "ann", "")
	var lines []string
	for i := range 50 {
		lines = append(lines, fmt.Sprintf("export const v%02d = 0", i))
	}
	text := strings.Join(lines, "\n") + "\n"
	if _, err := h.Tool(ctx, ws.ID, "write", raw(map[string]string{"path": "lib/values.ts", "text": text}), Call{Caller: "ann"}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := raw(map[string]string{"path": "lib/values.ts", "find": fmt.Sprintf("v%02d = 0", i), "with": fmt.Sprintf("v%02d = %d", i, i+1)})
			if _, err := h.Tool(ctx, ws.ID, "edit", in, Call{Caller: "ann", Agent: fmt.Sprint("agent", i%3)}); err != nil {
				errs <- err
			}
			// Readers run meanwhile and never see a half-written file.
			ans, err := h.Tool(ctx, ws.ID, "read", raw(map[string]string{"path": "lib/values.ts"}), Call{Caller: "ann"})
			if err != nil {
				errs <- err
			} else if n := strings.Count(ans.Data.(tools.ReadAnswer).Text, "\n"); n != 50 {
				errs <- fmt.Errorf("a reader saw %d lines", n)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got, _ := os.ReadFile(filepath.Join(h.dir, ws.ID, "lib", "values.ts"))
	for i := range 50 {
		if !strings.Contains(string(got), fmt.Sprintf("v%02d = %d\n", i, i+1)) {
			t.Errorf("edit %d was lost", i)
		}
	}
	ans, _ := h.Tool(ctx, ws.ID, "history", raw(map[string]int{"newest": 100}), Call{Caller: "ann"})
	if n := len(ans.Data.(tools.HistoryAnswer).Points); n != 51 {
		t.Errorf("%d points; want 51 (a write and 50 edits)", n)
	}
}

// TestUnknownAgent: a call through an agent the handle has no policy for
// is refused (T9125) and writes nothing; it is never run with no policy.
// A call that names no agent is the caller's own.
func TestUnknownAgent(t *testing.T) {
	h := open(t, Config{Policies: map[string]*tools.Policy{"careful": {Allow: []string{"lib/**"}}}})
	ctx := context.Background()
	ws, _ := h.Create(ctx, "ann", "")
	write := raw(map[string]string{"path": "tables/t.ts", "text": "export const t = 1\n"})
	_, err := h.Tool(ctx, ws.ID, "write", write, Call{Caller: "ann", Agent: "helper"})
	wantCode(t, err, diag.T9125)
	_, err = h.Tool(ctx, ws.ID, "read", raw(map[string]string{"path": "tables/t.ts"}), Call{Caller: "ann", Agent: "helper"})
	wantCode(t, err, diag.T9125)
	if _, err := os.Stat(filepath.Join(h.dir, ws.ID, "tables", "t.ts")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the unknown agent's write landed: %v", err)
	}
	// Not let in comes first: an unknown agent of a stranger learns nothing.
	_, err = h.Tool(ctx, ws.ID, "read", raw(map[string]string{"path": "x"}), Call{Caller: "eve", Agent: "helper"})
	wantCode(t, err, diag.T3101)
	_, err = h.Tool(ctx, ws.ID, "write", write, Call{Caller: "ann", Agent: "careful"})
	wantCode(t, err, diag.T9105)
	if _, err := h.Tool(ctx, ws.ID, "write", write, Call{Caller: "ann"}); err != nil {
		t.Errorf("the owner's own call: %v", err)
	}
}
