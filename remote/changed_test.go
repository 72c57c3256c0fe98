package remote

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/gitdiff"
	"github.com/tent-tools/tent-tools/internal/testneed"
)

// gitInit makes dir a repository of its files, committed, and answers a
// function that runs git there.
func gitInit(t *testing.T, dir string) func(args ...string) {
	t.Helper()
	bin, err := exec.LookPath("git")
	if err != nil {
		testneed.Missing(t, "git is not installed")
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	return git
}

// changeShop changes a committed file and adds one git does not track.
func changeShop(t *testing.T, dir string) {
	t.Helper()
	orders := filepath.Join(dir, "tables", "orders.ts")
	data, err := os.ReadFile(orders)
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), "    total: money(),\n", "    total: money(),\n    tip: money({ optional: true }),\n", 1))
	if err := os.WriteFile(orders, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lib", "late.ts"), []byte("export const late = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestChangedSinceThere: check --changed-since of a project reached as
// 127.0.0.1:PATH runs git there, through the link the calls take: the
// changed lines are those git gives on the local twin; a failed transport
// is asked once more; an unknown ref, a folder in no repository and a host
// without git are T9135 naming the host, as git there said.
func TestChangedSinceThere(t *testing.T) {
	r := needRig(t)
	twin, far := shop(t), shop(t)
	gitInit(t, twin)
	gitInit(t, far)
	changeShop(t, twin)
	changeShop(t, far)
	ctx := context.Background()
	local, err := gitdiff.Since(ctx, twin, "HEAD", "")
	if err != nil {
		t.Fatal(err)
	}
	want, err := local.Lines()
	if err != nil {
		t.Fatal(err)
	}
	w := r.open(t, far)
	var sends atomic.Int32
	w.sent = func(l *link, req request) {
		// The first ask's transport is cut before its answer.
		if req.Op == "changed" && sends.Add(1) == 1 {
			l.setReceived(func(reply) bool { return false })
			l.kill()
		}
	}
	got, err := w.ChangedSince(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("changed over ssh %+v; locally %+v", got, want)
	}
	if sends.Load() != 2 {
		t.Errorf("asked %d times; want twice (once more after the cut)", sends.Load())
	}
	w.sent = nil

	noRepo := shop(t)
	emptyPath := t.TempDir()
	noGit := NewHosts(HostsConfig{Binary: r.bin, Transports: map[string][]string{"127.0.0.1": r.Transport(
		map[string]string{"TENT_TOOLS_CACHE": r.cache, farEnv: "1", farPathEnv: emptyPath})}})
	tests := []struct {
		name  string
		hosts *Hosts
		dir   string
		ref   string
		want  string
	}{
		{"unknown ref", r.hosts(), far, "mian", "--changed-since mian: git on 127.0.0.1 knows no such commit"},
		{"a ref like a flag", r.hosts(), far, "--output=x", `--changed-since "--output=x": a ref does not start with -`},
		{"no repository", r.hosts(), noRepo, "HEAD", "--changed-since: the project on 127.0.0.1 is not in a git repository"},
		{"no git there", noGit, far, "HEAD", "--changed-since needs git on 127.0.0.1, which is not on the PATH there"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := Open(ctx, tt.hosts, Target{Host: "127.0.0.1", Path: tt.dir})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			_, err = w.ChangedSince(ctx, tt.ref)
			te := wantCode(t, err, diag.T9135)
			if !strings.HasPrefix(te.Message, tt.want) {
				t.Errorf("message %q; want it to start %q", te.Message, tt.want)
			}
			if host, _ := json.Marshal(te.Data["host"]); string(host) != `"127.0.0.1"` {
				t.Errorf("data %v; want host 127.0.0.1", te.Data)
			}
		})
	}
}
