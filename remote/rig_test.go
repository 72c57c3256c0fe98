package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/internal/testneed"
	"github.com/tent-tools/tent-tools/tools"
)

// The tests reach projects through a real transport: Debian's sshd on the
// loopback, started once for the test binary with a host key and a client
// key made for it and its own config, in the foreground, killed by
// TestMain; the far side is the tent-tools binary built once.

// sshRig is the sshd the tests reach 127.0.0.1:PATH through.
type sshRig struct {
	dir   string // everything of the rig: keys, config, known hosts, caches
	port  int
	key   string
	known string
	bin   string // the tent-tools binary
	cache string // the far side's cache the tests share
	sshd  *exec.Cmd
}

var (
	rigOnce sync.Once
	rig     *sshRig
	rigErr  error
	rigDir  string
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "remote-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rigDir = dir
	code := m.Run()
	if rig != nil && rig.sshd != nil {
		rig.sshd.Process.Kill()
		rig.sshd.Wait()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// needRig answers the rig, starting it on first use; where sshd or ssh is
// missing the test fails under CI and is skipped elsewhere.
func needRig(t *testing.T) *sshRig {
	t.Helper()
	sshd, err := exec.LookPath("sshd")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/sshd"); serr == nil {
			sshd, err = "/usr/sbin/sshd", nil
		}
	}
	if err != nil {
		testneed.Missing(t, "sshd is not installed (Debian's openssh-server; .ci/setup.d/60-openssh.sh)")
	}
	for _, prog := range []string{"ssh", "ssh-keygen"} {
		if _, err := exec.LookPath(prog); err != nil {
			testneed.Missing(t, "%s is not installed (Debian's openssh-client; .ci/setup.d/60-openssh.sh)", prog)
		}
	}
	rigOnce.Do(func() { rig, rigErr = startRig(sshd, rigDir) })
	if rigErr != nil {
		t.Fatal(rigErr)
	}
	return rig
}

// startRig builds tent-tools, makes the keys and the config, and starts
// sshd on a free port of the loopback.
func startRig(sshd, dir string) (*sshRig, error) {
	r := &sshRig{dir: dir, key: filepath.Join(dir, "client"), known: filepath.Join(dir, "known_hosts"),
		bin: filepath.Join(dir, "bin", "tent-tools"), cache: filepath.Join(dir, "cache")}
	build := exec.Command("go", "build", "-o", r.bin, "../cmd/tent-tools")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("build tent-tools: %v\n%s", err, out)
	}
	for _, key := range []string{filepath.Join(dir, "host"), r.key} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("ssh-keygen: %v\n%s", err, out)
		}
	}
	pub, err := os.ReadFile(r.key + ".pub")
	if err != nil {
		return nil, err
	}
	authorized := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(authorized, pub, 0o600); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r.port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	config := strings.Join([]string{
		"Port " + strconv.Itoa(r.port),
		"ListenAddress 127.0.0.1",
		"HostKey " + filepath.Join(dir, "host"),
		"AuthorizedKeysFile " + authorized,
		"PidFile " + filepath.Join(dir, "sshd.pid"),
		// Root (a CI container) logs in with the key, never a password.
		"PermitRootLogin prohibit-password",
		"PasswordAuthentication no",
		"KbdInteractiveAuthentication no",
		"UsePAM no",
		"StrictModes no",
		// Each test names the far side's cache (SetEnv of ssh).
		"AcceptEnv TENT_TOOLS_CACHE",
		"",
	}, "\n")
	configFile := filepath.Join(dir, "sshd_config")
	if err := os.WriteFile(configFile, []byte(config), 0o600); err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		// sshd run as root wants its privilege separation folder.
		os.MkdirAll("/run/sshd", 0o755)
	}
	cmd := exec.Command(sshd, "-D", "-e", "-f", configFile)
	log, err := os.Create(filepath.Join(dir, "sshd.log"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start sshd: %w", err)
	}
	r.sshd = cmd
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(r.port))
		if err == nil {
			c.Close()
			return r, nil
		}
		if time.Since(start) > 10*time.Second {
			out, _ := os.ReadFile(filepath.Join(dir, "sshd.log"))
			return r, fmt.Errorf("sshd does not listen on %d: %s", r.port, out)
		}
	}
}

// transport is the hosts file's entry of 127.0.0.1, whose far side keeps
// its cache in cache.
func (r *sshRig) transport(cache string) []string {
	return []string{"ssh", "-F", "/dev/null", "-p", strconv.Itoa(r.port), "-i", r.key,
		"-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no",
		"-o", "UserKnownHostsFile=" + r.known, "-o", "LogLevel=ERROR",
		"-o", "SetEnv=TENT_TOOLS_CACHE=" + cache, "127.0.0.1"}
}

// hosts makes the Hosts of the rig, with the shared cache.
func (r *sshRig) hosts() *Hosts {
	return NewHosts(HostsConfig{Transports: map[string][]string{"127.0.0.1": r.transport(r.cache)}, Binary: r.bin})
}

// hostsFile writes a hosts file of the rig (the far side's cache in cache)
// and answers its path.
func (r *sshRig) hostsFile(t *testing.T, cache string) string {
	t.Helper()
	data, err := json.Marshal(map[string][]string{"127.0.0.1": r.transport(cache)})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "hosts.json")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return file
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
