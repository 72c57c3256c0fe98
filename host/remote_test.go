package host

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/internal/sshtest"
	"github.com/tent-tools/tent-tools/remote"
	"github.com/tent-tools/tent-tools/tools"
)

// farEnv makes this test binary the far side of a remote workspace, as
// `tent-tools serve-remote -C PATH` is.
const farEnv = "TENT_HOST_TEST_FAR"

func TestMain(m *testing.M) {
	if os.Getenv(farEnv) == "1" {
		args := os.Args[1:]
		if len(args) != 3 || args[0] != "serve-remote" || args[1] != "-C" {
			fmt.Fprintf(os.Stderr, "the test's far side takes serve-remote -C PATH, not %q\n", args)
			os.Exit(2)
		}
		if err := remote.Serve(context.Background(), remote.ServeConfig{Dir: args[2], Build: "(devel)"}, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestRemoteWorkspace: a workspace whose project is on another machine
// (127.0.0.1:PATH through a real sshd) answers as a local workspace made
// from the same project, admits only whom it admits, records its turns
// there, and is reached again by a new handle over the same folder.
func TestRemoteWorkspace(t *testing.T) {
	srv, err := sshtest.Start(sshtest.Need(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	transport := srv.Transport(map[string]string{"TENT_TOOLS_CACHE": filepath.Join(t.TempDir(), "cache"), farEnv: "1"})
	hosts := func() *remote.Hosts {
		return remote.NewHosts(remote.HostsConfig{Transports: map[string][]string{"127.0.0.1": transport}})
	}
	ctx := context.Background()
	dir := t.TempDir()
	h, err := Open(dir, Config{Hosts: hosts()})
	if err != nil {
		t.Fatal(err)
	}
	far := sample.Copy(t, shop)
	rinfo, err := h.Attach(ctx, "ann", "127.0.0.1:"+far)
	if err != nil {
		t.Fatal(err)
	}
	if rinfo.Remote != "127.0.0.1:"+far {
		t.Errorf("info %+v", rinfo)
	}
	linfo, err := h.Create(ctx, "ann", shop)
	if err != nil {
		t.Fatal(err)
	}
	ann := Call{Caller: "ann"}
	calls := []struct{ tool, input string }{
		{"map", `{}`},
		{"edit", `{"path": "tables/orders.ts", "find": "    total: money(),\n", "with": "    total: money(),\n    tip: money({ optional: true }),\n"}`},
		{"rename", `{"name": "users", "to": "customers"}`},
		{"read", `{"path": "../etc/passwd"}`},
	}
	shown := func(ans tools.Answer, err error) string {
		if err != nil {
			d, _ := tools.JSON(tools.ErrorData(err))
			return err.Error() + "\n" + string(d)
		}
		d, _ := tools.JSON(ans.Data)
		return ans.Text + "\n" + string(d)
	}
	err = h.Turn(ctx, rinfo.ID, ann, func(rt *Turn) error {
		return h.Turn(ctx, linfo.ID, ann, func(lt *Turn) error {
			if rt.Number() != lt.Number() {
				t.Errorf("turn %d there, %d here", rt.Number(), lt.Number())
			}
			for _, c := range calls {
				got := shown(rt.Tool(ctx, c.tool, json.RawMessage(c.input)))
				want := shown(lt.Tool(ctx, c.tool, json.RawMessage(c.input)))
				if got != want {
					t.Errorf("%s remote:\n%s\nlocal:\n%s", c.tool, got, want)
				}
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	got, want := sample.Load(t, far), sample.Load(t, filepath.Join(dir, linfo.ID))
	for name := range want {
		if string(got[name]) != string(want[name]) {
			t.Errorf("%s differs", name)
		}
	}
	if _, err := h.Tool(ctx, rinfo.ID, "map", nil, Call{Caller: "bob"}); err == nil {
		t.Error("bob was let into ann's remote workspace")
	} else {
		wantCode(t, err, diag.T3101)
	}
	h.Close()

	// A new handle over the folder reaches the project again.
	h2, err := Open(dir, Config{Hosts: hosts()})
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	ans, err := h2.Tool(ctx, rinfo.ID, "history", nil, ann)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ans.Text, "rename users to customers") || !strings.Contains(ans.Text, "turn") {
		t.Errorf("the far history:\n%s", ans.Text)
	}
	if _, err := h2.Attach(ctx, "ann", "127.0.0.1:"+filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("attached a folder that is no project")
	} else {
		wantCode(t, err, diag.T9162)
	}
}
