package sandbox

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/testneed"
)

// needBwrap ends t where bubblewrap is missing (a failure under CI).
func needBwrap(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		testneed.Missing(t, "bwrap (bubblewrap) is not installed: .ci/setup.d/25-bubblewrap.sh installs it")
	}
}

// run runs sh -c script in a sandbox of root (with the read-only paths
// ro) and answers its output and exit code.
func run(t *testing.T, root string, ro []Path, noNet bool, script string) (string, int) {
	t.Helper()
	s, err := Command(Spec{Root: root, Dir: root, ReadOnly: ro, NoNetwork: noNet,
		Argv: []string{"sh", "-c", script}, Env: []string{"PATH=/usr/bin:/bin"}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	s.Cmd.Stdout, s.Cmd.Stderr = &out, &out
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	s.Cmd.Wait()
	if err := s.Close(); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	return out.String(), s.Cmd.ProcessState.ExitCode()
}

func TestConfined(t *testing.T) {
	needBwrap(t)
	parent := t.TempDir()
	root := filepath.Join(parent, "ws")
	for name, text := range map[string]string{
		"ws/a.txt": "a", "ws/.tent/history.db": "h", "ws/engine.ts": "e", "secret.txt": "host's",
	} {
		p := filepath.Join(parent, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ro := []Path{{Rel: ".tent", Dir: true}, {Rel: ".git", Dir: true}, {Rel: "engine.ts"}, {Rel: "tent.d.ts"}}
	for _, tt := range []struct {
		name, script string
		exit         int
		out          string
	}{
		{"writes the root", "echo b > b.txt && mkdir -p lib && echo c > lib/c.txt && cat a.txt", 0, "a"},
		{"read-only file", "echo x >> engine.ts", 2, ""},
		{"read-only file replaced", "rm -f engine.ts; mv a.txt engine.ts", 1, ""},
		{"read-only folder", "echo x > .tent/planted", 2, ""},
		{"read-only folder's file", "echo x > .tent/history.db", 2, ""},
		{"missing file", "echo x > tent.d.ts", 2, ""},
		{"missing folder", "mkdir -p .git/hooks", 1, ""},
		{"the parent's file", "cat ../secret.txt", 1, ""},
		{"the parent's folder", "ls .. | tr '\\n' ' '", 0, "ws "},
		{"home", "ls /root", 2, ""},
		{"shadow", "cat /etc/shadow 2>/dev/null | wc -c | tr -d ' '", 0, "0\n"},
		{"the system", "touch /usr/x /etc/x /x", 1, ""},
		{"tmp", "echo t > /tmp/t && cat /tmp/t", 0, "t\n"},
		{"its processes alone", "ls /proc | grep -c '^[0-9]'", 0, "4\n"}, // bwrap's first, sh, ls, grep
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, exit := run(t, root, ro, false, "{ "+tt.script+"; } 2>/dev/null")
			if exit != tt.exit || (tt.out != "" && out != tt.out) {
				t.Errorf("%s: exit %d, output %q; want exit %d, output %q", tt.script, exit, out, tt.exit, tt.out)
			}
		})
	}
	// The placeholders are gone again; the writes of the first case stayed.
	for _, name := range []string{"tent.d.ts", ".git"} {
		if _, err := os.Lstat(filepath.Join(root, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s after the runs: %v; want no file", name, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(root, "lib", "c.txt")); err != nil || string(b) != "c\n" {
		t.Errorf("lib/c.txt = %q, %v; want the command's write", b, err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "engine.ts")); string(b) != "e" {
		t.Errorf("engine.ts = %q; want it untouched", b)
	}
}

// TestEveryProcessEnds starts a child that leaves the command's session
// (setsid) and would write later: it ends with the command.
func TestEveryProcessEnds(t *testing.T) {
	needBwrap(t)
	root := t.TempDir()
	out, exit := run(t, root, nil, false, "setsid sh -c 'sleep 1; echo late > late.txt' & nohup sh -c 'sleep 1; echo late > late2.txt' >/dev/null 2>&1 & echo started")
	if exit != 0 || out != "started\n" {
		t.Fatalf("exit %d, output %q", exit, out)
	}
	time.Sleep(2 * time.Second)
	for _, name := range []string{"late.txt", "late2.txt"} {
		if _, err := os.Stat(filepath.Join(root, name)); err == nil {
			t.Errorf("%s was written after the command ended", name)
		}
	}
}

func TestNoNetwork(t *testing.T) {
	needBwrap(t)
	root := t.TempDir()
	count := "grep -c : /proc/net/dev"
	out, _ := run(t, root, nil, true, count)
	if out != "1\n" { // lo alone
		t.Errorf("interfaces without the network: %q; want lo alone", out)
	}
}

func TestLinkRefused(t *testing.T) {
	root := t.TempDir()
	if err := os.Symlink("/etc/passwd", filepath.Join(root, "engine.ts")); err != nil {
		t.Fatal(err)
	}
	_, err := Command(Spec{Root: root, Dir: root, ReadOnly: []Path{{Rel: "engine.ts"}}, Argv: []string{"true"}})
	if errors.Is(err, ErrUnavailable) {
		t.Skip(err)
	}
	if !errors.Is(err, ErrLinked) || !strings.Contains(err.Error(), "engine.ts") {
		t.Errorf("a read-only path that is a link: %v; want ErrLinked naming it", err)
	}
}
