package runner

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestTimeLimit(t *testing.T) {
	root := project(t, "run-limits")
	ix := index(t, root)
	r := newRunner(t, root, Config{TimeLimit: 200 * time.Millisecond})
	start := time.Now()
	_, err := r.Run(context.Background(), ix, Request{Name: "spin"})
	took := time.Since(start)
	if code(err) != "T4004" {
		t.Fatalf("spin: err = %v, want T4004", err)
	}
	if took > 2*time.Second {
		t.Errorf("spin took %v with a 200ms limit", took)
	}
	rows, err := r.Rows(context.Background(), ix, "notes", 0)
	if err != nil {
		t.Fatal(err)
	}
	if rows.Total != 0 {
		t.Errorf("the row spin wrote before its loop was kept: %d notes", rows.Total)
	}
	// The runner serves the next run as before.
	if _, err := r.Run(context.Background(), ix, Request{Name: "globals"}); err != nil {
		t.Errorf("a run after a stopped one: %v", err)
	}
}

func TestMemoryLimit(t *testing.T) {
	root := project(t, "run-limits")
	ix := index(t, root)
	r := newRunner(t, root, Config{MemoryLimit: 32 << 20, TimeLimit: 30 * time.Second})
	start := time.Now()
	_, err := r.Run(context.Background(), ix, Request{Name: "bomb"})
	if code(err) != "T4005" {
		t.Fatalf("bomb: err = %v, want T4005", err)
	}
	t.Logf("bomb stopped after %v", time.Since(start))
}

func TestCancelledContext(t *testing.T) {
	root := project(t, "run-limits")
	ix := index(t, root)
	r := newRunner(t, root, Config{})
	// The caller's deadline may pass before the app's code runs (while the
	// test database opens, on a loaded machine) or while it runs: T4004
	// either way.
	for _, d := range []time.Duration{0, time.Millisecond, 100 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		if _, err := r.Run(ctx, ix, Request{Name: "spin"}); code(err) != "T4004" {
			t.Errorf("spin under a context cancelled after %v: err = %v, want T4004", d, err)
		}
		cancel()
	}
}

func TestAppErrorsAndSandbox(t *testing.T) {
	root := project(t, "run-limits")
	ix := index(t, root)
	r := newRunner(t, root, Config{})
	ctx := context.Background()

	_, err := r.Run(ctx, ix, Request{Name: "positive", Input: json.RawMessage(`{"n":-1}`)})
	te := toolError(t, err, "T4003")
	wantStack := []string{"mustBePositive (lib/check.ts:5:11)", "run (functions/limits.ts:32:27)"}
	if !reflect.DeepEqual(te.Data["stack"], wantStack) {
		t.Errorf("stack = %q, want %q", te.Data["stack"], wantStack)
	}
	if te.Message != "RangeError: -1 is not positive (at lib/check.ts:5:11)" {
		t.Errorf("message = %q", te.Message)
	}
	if te.Data["logged"] == nil {
		t.Errorf("a failed run lost what it logged: %v", te.Data)
	}

	_, err = r.Run(ctx, ix, Request{Name: "hang"})
	if te := toolError(t, err, "T4003"); !strings.Contains(te.Message, "never settles") {
		t.Errorf("hang: %v", te)
	}

	res, err := r.Run(ctx, ix, Request{Name: "globals"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"require": "undefined", "process": "undefined", "fetch": "undefined", "setTimeout": "undefined", "console": "object"}
	if got := decode(t, res.Result); !reflect.DeepEqual(got, want) {
		t.Errorf("globals = %v, want %v", got, want)
	}

	_, err = r.Run(ctx, ix, Request{Name: "readSecrets"})
	if te := toolError(t, err, "T1001"); !strings.Contains(te.Message, `cannot import "fs"`) || !strings.Contains(te.Message, "functions/host.ts:2:") {
		t.Errorf("readSecrets: %v", te)
	}
}

func TestJSX(t *testing.T) {
	root := project(t, "run-limits")
	ix := index(t, root)
	r := newRunner(t, root, Config{})
	res, err := r.Run(context.Background(), ix, Request{Name: "render", Input: json.RawMessage(`{"name":"Ann"}`)})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"Page","props":{"title":"Hi"},"children":[` +
		`{"type":"Text","props":{},"children":["Hello, ","Ann"]},` +
		`{"type":"Badge","props":{"tone":"info"},"children":["new"]}]}`
	if string(res.Result) != want {
		t.Errorf("render =\n%s\nwant\n%s", res.Result, want)
	}
}

// TestCancelledFirstRunIsLogged: the first run of a process, cancelled by
// its caller, is still kept in the run log (the log is not opened with the
// cancelled context).
func TestCancelledFirstRunIsLogged(t *testing.T) {
	root := project(t, "run-limits")
	r := newRunner(t, root, Config{})
	ix := index(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := r.Run(ctx, ix, Request{Name: "spin"}); err == nil {
		t.Fatal("a cancelled spin answered no error")
	}
	logs, err := r.Logs(context.Background(), LogsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(logs.Entries) != 1 || logs.Entries[0].Name != "spin" {
		t.Fatalf("the log holds %+v, want the cancelled spin", logs.Entries)
	}
}
