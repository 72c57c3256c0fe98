package mcp_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tent-tools/tent-tools/internal/golden"
	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/internal/sshtest"
)

// TestRemoteStdio serves a project reached as 127.0.0.1:PATH through a
// real sshd (`tent-tools mcp --hosts FILE -C 127.0.0.1:PATH`) beside its
// local twin: every golden call, one after another, answers the same
// text, structuredContent and isError on both, and the trees stay alike.
func TestRemoteStdio(t *testing.T) {
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
	twin, far := copyProject(t, "shop"), copyProject(t, "shop")
	local := connect(t, twin, nil, nil, "--caller", "ann")
	remote := connectCmd(t, exec.Command(bin, "mcp", "--hosts", hosts, "-C", "127.0.0.1:"+far, "--caller", "ann"), nil, nil)
	cases := golden.Calls(t, "../tools/testdata/calls.json")
	for _, c := range cases {
		want, got := call(t, local, c.Tool, string(c.Input)), call(t, remote, c.Tool, string(c.Input))
		wantData, _ := json.Marshal(want.StructuredContent)
		gotData, _ := json.Marshal(got.StructuredContent)
		if text(got) != text(want) || string(gotData) != string(wantData) || got.IsError != want.IsError {
			t.Errorf("%s over ssh: isError %v\n%s\n%s\nlocally: isError %v\n%s\n%s", c.Name, got.IsError, text(got), gotData, want.IsError, text(want), wantData)
		}
		if w, g := sample.Load(t, twin), sample.Load(t, far); !sameFiles(w, g) {
			t.Errorf("%s: the trees differ", c.Name)
		}
	}
}

// sameFiles reports whether two trees hold the same files and texts.
func sameFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for name, data := range a {
		if other, ok := b[name]; !ok || string(other) != string(data) {
			return false
		}
	}
	return true
}
