package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/internal/sshtest"
	"github.com/tent-tools/tent-tools/tools"
)

// The tests reach projects through a real transport: Debian's sshd on the
// loopback (internal/sshtest), started once for the test binary and killed
// by TestMain. The far side is this test binary: started there with
// TENT_REMOTE_TEST_FAR=1, it serves as `tent-tools serve-remote` does
// (farMain), so no tent-tools is built for the tests; it is copied to the
// far side's cache on first use, as tent-tools copies itself.

// farEnv makes the test binary the far side.
const farEnv = "TENT_REMOTE_TEST_FAR"

// sshRig is the sshd the tests reach 127.0.0.1:PATH through.
type sshRig struct {
	*sshtest.Server
	bin   string // this test binary, the far side's program
	cache string // the far side's cache the tests share
}

var (
	rigOnce sync.Once
	rig     *sshRig
	rigErr  error
	rigDir  string
)

func TestMain(m *testing.M) {
	if os.Getenv(farEnv) == "1" {
		os.Exit(farMain(os.Args[1:]))
	}
	dir, err := os.MkdirTemp("", "remote-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rigDir = dir
	code := m.Run()
	if rig != nil {
		rig.Stop()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// farPathEnv, where a transport sends it, is the far side's PATH (a test
// of a host without git), set once the start script found the binary.
const farPathEnv = "TENT_REMOTE_TEST_PATH"

// farMain is the far side as `tent-tools serve-remote -C PATH` runs it.
func farMain(args []string) int {
	if p := os.Getenv(farPathEnv); p != "" {
		os.Setenv("PATH", p)
	}
	if len(args) != 3 || args[0] != "serve-remote" || args[1] != "-C" {
		fmt.Fprintf(os.Stderr, "the test's far side takes serve-remote -C PATH, not %q\n", args)
		return 2
	}
	if err := Serve(context.Background(), ServeConfig{Dir: args[2], Build: "(devel)"}, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// needRig answers the rig, starting it on first use; where sshd or ssh is
// missing the test fails under CI and is skipped elsewhere.
func needRig(t testing.TB) *sshRig {
	t.Helper()
	sshd := sshtest.Need(t)
	rigOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			rigErr = err
			return
		}
		var s *sshtest.Server
		s, rigErr = sshtest.Start(sshd, rigDir)
		rig = &sshRig{Server: s, bin: exe, cache: filepath.Join(rigDir, "cache")}
	})
	if rigErr != nil {
		t.Fatal(rigErr)
	}
	return rig
}

// transport is the hosts file's entry of 127.0.0.1, whose far side keeps
// its cache in cache and is this test binary.
func (r *sshRig) transport(cache string) []string {
	return r.Transport(map[string]string{"TENT_TOOLS_CACHE": cache, farEnv: "1"})
}

// hosts makes the Hosts of the rig, with the shared cache.
func (r *sshRig) hosts() *Hosts {
	return NewHosts(HostsConfig{Transports: map[string][]string{"127.0.0.1": r.transport(r.cache)}, Binary: r.bin})
}

// open opens the project dir (of this machine) as 127.0.0.1:dir.
func (r *sshRig) open(t *testing.T, dir string) *Workspace {
	t.Helper()
	w, err := Open(context.Background(), r.hosts(), Target{Host: "127.0.0.1", Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// shop copies the sample project.
func shop(t *testing.T) string {
	t.Helper()
	return sample.Copy(t, "../testdata/projects/shop")
}

// shown is an answer as the faces print it: the text, and the data (or the
// error's) as --json prints it.
func shown(ans tools.Answer, err error) string {
	if err != nil {
		data, _ := tools.JSON(tools.ErrorData(err))
		return "error " + err.Error() + "\n" + string(data)
	}
	data, jerr := tools.JSON(ans.Data)
	if jerr != nil {
		return "no JSON: " + jerr.Error()
	}
	return ans.Text + "\n-- json --\n" + string(data)
}

// callLocal runs one call on the project dir of this machine.
func callLocal(t *testing.T, dir, tool string, input json.RawMessage, opts tools.Options) string {
	t.Helper()
	ws, err := tools.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	return shown(tools.Call(context.Background(), ws, tool, input))
}

// sameTree fails t where the project files of a and b differ.
func sameTree(t *testing.T, a, b string) {
	t.Helper()
	ta, tb := sample.Load(t, a), sample.Load(t, b)
	for name, data := range ta {
		if other, ok := tb[name]; !ok {
			t.Errorf("%s is in the local twin only", name)
		} else if string(other) != string(data) {
			t.Errorf("%s differs:\nlocal:\n%s\nremote:\n%s", name, data, other)
		}
	}
	for name := range tb {
		if _, ok := ta[name]; !ok {
			t.Errorf("%s is on the remote side only", name)
		}
	}
}
