package mcp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tent-tools/tent-tools/internal/golden"
	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/internal/sshtest"
)

// project600 writes a generated project of 600 tables, big enough that
// every list of the bounded calls below passes its budget.
func project600(t *testing.T) string {
	t.Helper()
	texts := map[string]string{}
	for p, src := range projectgen.Generate(projectgen.Options{Tables: 600, Seed: 1}) {
		texts[p] = string(src)
	}
	dir := t.TempDir()
	sample.Write(t, dir, texts)
	return dir
}

// boundedCalls are the calls whose lists an agent's answer cuts: the hub
// rename's dry run (its diff) and its second page, the rename applied,
// compare of it (changes), a table of 57 columns added and changedBy of
// it (fields), list of the 600 table files (entries), model and its next
// page (tables, functions, flows, screens), and the undo of both changes
// (files).
var boundedCalls = []struct{ name, tool, input string }{
	{"change-dryrun", "change", `{"ops": [{"op": "rename", "name": "accounts", "to": "members"}], "dryRun": true}`},
	{"change-dryrun-next", "change", `{"ops": [{"op": "rename", "name": "accounts", "to": "members"}], "dryRun": true, "from": %d}`},
	{"change", "change", `{"ops": [{"op": "rename", "name": "accounts", "to": "members"}]}`},
	{"compare", "compare", `{"from": 0}`},
	{"compare-skip", "compare", `{"from": 0, "skip": 100}`},
	{"addTable", "change", `{"ops": [{"op": "addTable", "name": "wide", "columns": {%s}}]}`},
	{"changedBy", "changedBy", `{"name": "wide"}`},
	{"list", "list", `{"path": "tables"}`},
	{"model", "model", `{}`},
	{"model-next", "model", `{"from": 10}`},
	{"undo", "undo", `{"point": 1}`},
}

// inputOf is a bounded call's input, its blanks filled: the from of the
// dry run's next page (from the first page's more), the wide table's
// columns.
func inputOf(c struct{ name, tool, input string }, next int) string {
	switch c.name {
	case "change-dryrun-next":
		return fmt.Sprintf(c.input, next)
	case "addTable":
		var cols []string
		for i := range 57 {
			cols = append(cols, fmt.Sprintf(`"c%02d": {"type": "text"}`, i))
		}
		return fmt.Sprintf(c.input, strings.Join(cols, ", "))
	}
	return c.input
}

// TestBoundedAnswers: over MCP every list of these answers is within its
// budget on a project of 600 tables, and says what it cut (the text's
// last lines, the data's more, alike); the answers are golden
// (testdata/bounded/*.golden: the text, then the structuredContent).
func TestBoundedAnswers(t *testing.T) {
	cs := connect(t, project600(t), nil, nil, "--caller", "ann")
	next := 0
	for _, c := range boundedCalls {
		res := call(t, cs, c.tool, inputOf(c, next))
		if res.IsError {
			t.Fatalf("%s: %s", c.name, text(res))
		}
		data, err := json.MarshalIndent(res.StructuredContent, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		more := moreOf(t, res)
		if c.name != "addTable" && len(more) == 0 {
			t.Errorf("%s: nothing cut on a project of 600 tables", c.name)
		}
		for _, m := range more {
			if !strings.Contains(text(res), m.Rest) || m.Cut <= 0 {
				t.Errorf("%s: more %+v: not in the text, or nothing cut", c.name, m)
			}
			if c.name == "change-dryrun" && m.List == "diff" {
				next = m.From
			}
		}
		if wire, _ := json.Marshal(res.StructuredContent); len(wire) > 96<<10 {
			t.Errorf("%s: %d bytes of structuredContent", c.name, len(wire))
		}
		got := pointTime.ReplaceAllString(text(res)+"\n-- structuredContent --\n"+string(data)+"\n", "TIME")
		golden.Check(t, filepath.Join("testdata", "bounded", c.name+".golden"), []byte(got))
	}
	if next == 0 {
		t.Error("the dry run's diff was not paged")
	}
}

// pointTime is a point's time, which a golden holds as TIME.
var pointTime = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)

// more is one entry of an answer's more.
type more struct {
	List  string `json:"list"`
	Shown int    `json:"shown"`
	Cut   int    `json:"cut"`
	From  int    `json:"from"`
	Rest  string `json:"rest"`
}

// moreOf decodes a result's more.
func moreOf(t *testing.T, res *sdk.CallToolResult) []more {
	t.Helper()
	b, _ := json.Marshal(res.StructuredContent)
	var a struct {
		More []more `json:"more"`
	}
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	return a.More
}

// TestBoundedRemote: an MCP server on a remote project (-C HOST:PATH,
// through a real sshd) answers the bounded calls as a local one does:
// cut on the far side, the same text and structuredContent.
func TestBoundedRemote(t *testing.T) {
	srv, err := sshtest.Start(sshtest.Need(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	data, err := json.Marshal(map[string][]string{
		"127.0.0.1": srv.Transport(map[string]string{"TENT_TOOLS_CACHE": filepath.Join(t.TempDir(), "cache")}),
	})
	if err != nil {
		t.Fatal(err)
	}
	hosts := filepath.Join(t.TempDir(), "hosts.json")
	if err := os.WriteFile(hosts, data, 0o600); err != nil {
		t.Fatal(err)
	}
	local := connect(t, project600(t), nil, nil, "--caller", "ann")
	remote := connectCmd(t, exec.Command(bin, "mcp", "--hosts", hosts, "-C", "127.0.0.1:"+project600(t), "--caller", "ann"), nil, nil)
	next := 0
	for _, c := range boundedCalls {
		input := inputOf(c, next)
		want, got := call(t, local, c.tool, input), call(t, remote, c.tool, input)
		wantData, _ := json.Marshal(want.StructuredContent)
		gotData, _ := json.Marshal(got.StructuredContent)
		// The two points were made a moment apart.
		g, w := pointTime.ReplaceAllString(text(got)+string(gotData), "TIME"), pointTime.ReplaceAllString(text(want)+string(wantData), "TIME")
		if g != w {
			t.Errorf("%s over ssh:\n%.3000s\nlocally:\n%.3000s", c.name, gotData, wantData)
		}
		for _, m := range moreOf(t, got) {
			if c.name == "change-dryrun" && m.List == "diff" {
				next = m.From
			}
		}
	}
	if next == 0 {
		t.Error("the dry run's diff was not paged over ssh")
	}
}
