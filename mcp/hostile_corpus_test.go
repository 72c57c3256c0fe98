package mcp_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// corpusCase is one attack of testdata/hostile-corpus.json.
type corpusCase struct {
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
	Codes []string        `json:"codes"`
}

// TestHostileCorpus runs the hostile-app corpus (every attack of issue 20
// and of the runner's hostile tests) through one long-lived `mcp` session:
// each call answers with one of its codes, a well-behaved run is answered
// after each, and the server never dies (0 host deaths). The runs' time
// limit is 1 s (TENT_RUN_TIME_LIMIT), so that the corpus takes tens of
// seconds, not minutes.
func TestHostileCorpus(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "hostile-corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var corpus struct {
		Project string       `json:"project"`
		Cases   []corpusCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &corpus); err != nil {
		t.Fatal(err)
	}
	dir := copyProject(t, corpus.Project)
	cmd := exec.Command(bin, "mcp", "-C", dir)
	cmd.Env = append(os.Environ(), "TENT_RUN_TIME_LIMIT=1s")
	cs := connectCmd(t, cmd, nil, nil)
	// The 600 KB file of nested brackets, accepted by write, that
	// esbuild's parser recursed on until the process died.
	deep := "import { fn } from 'tent'\n\nexport const deep = fn({ run: () => " + strings.Repeat("[", 3e5) + strings.Repeat("]", 3e5) + " })\n"
	quoted, _ := json.Marshal(deep)
	if res := call(t, cs, "write", `{"path": "functions/deep.ts", "text": `+string(quoted)+`}`); res.IsError {
		t.Fatalf("write functions/deep.ts: %s", text(res))
	}
	// The first run builds the test database: not what the limits time.
	if res := call(t, cs, "run", `{"name": "sum", "input": {"a": 2, "b": 3}}`); res.IsError {
		t.Fatalf("run sum: %s", text(res))
	}
	deaths := 0
	for _, c := range corpus.Cases {
		input := `{"name": "` + c.Name + `"}`
		if len(c.Input) > 0 {
			input = `{"name": "` + c.Name + `", "input": ` + string(c.Input) + `}`
		}
		start := time.Now()
		res := call(t, cs, "run", input)
		code := errorCode(t, res)
		if !slices.Contains(c.Codes, code) {
			t.Errorf("%s: %q (%s); want one of %q", input, code, text(res), c.Codes)
		}
		if took := time.Since(start); took > 6*time.Second {
			t.Errorf("%s: took %v, more than the limit of 1 s and 5 s", input, took)
		}
		if strings.Contains(text(res), "goroutine ") {
			t.Errorf("%s: the answer holds Go's crash text: %s", input, text(res))
		}
		if code != "" && strings.Contains(text(res), "worker") {
			deaths++ // T4013, or a worker killed at the deadline or out of memory
		}
		if res := call(t, cs, "run", `{"name": "sum", "input": {"a": 2, "b": 3}}`); res.IsError {
			t.Fatalf("after %s the server no longer runs: %s", input, text(res))
		}
	}
	if cmd.ProcessState != nil {
		t.Fatalf("the server ended: %v", cmd.ProcessState)
	}
	if deaths == 0 {
		t.Error("no attack ended its worker: the corpus tests nothing of the process boundary")
	}
	t.Logf("%d cases, %d workers ended, 0 host deaths", len(corpus.Cases), deaths)
}
